/**
 * `npm run devnet` (scripts/devnet.ts) as a person runs it, but on free ports (`--random-ports`), so
 * a busy 8545 or 5001 on the machine never makes this fail: `--check` starts everything, prints the
 * snap's params, stops, exits 0 and leaves no process and no temporary folder behind; a port already
 * taken is refused before anything starts, naming the port and the flag that moves it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/devnet.ts');

/** How a run of the script ended. */
type Run = {
  /** Its exit code (null when killed by a signal). */
  code: number | null;
  /** What it printed. */
  stdout: string;
  /** What it printed on stderr. */
  stderr: string;
};

/**
 * Run the script to its end (bounded: SIGTERM after 100 s).
 *
 * @param args - Its arguments.
 * @param env - Extra environment variables.
 * @returns Exit code and output.
 */
async function runDevnet(
  args: string[],
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', SCRIPT, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, TSX_DISABLE_CACHE: '1', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), 100_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The JSON block printed under `title` (up to the first line that is only `}`).
 *
 * @param stdout - The script's output.
 * @param title - The line before the block.
 * @returns The parsed block.
 */
function jsonAfter(stdout: string, title: string): Record<string, string> {
  const start = stdout.indexOf(`${title}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = stdout.slice(start + title.length + 1);
  return JSON.parse(rest.slice(0, rest.indexOf('\n}\n') + 2)) as Record<
    string,
    string
  >;
}

/**
 * Whether a process is still running.
 *
 * @param pid - Its PID.
 * @returns True when signal 0 reaches it.
 */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm run devnet', () => {
  it('--check --random-ports: starts everything, prints the params, stops, exits 0, leaves nothing behind', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'keyring-snap-devnet-test-'));
    try {
      const run = await runDevnet(['--check', '--random-ports'], {
        TMPDIR: tmp,
      });
      expect({ code: run.code, stderr: run.stderr }).toStrictEqual({
        code: 0,
        stderr: expect.any(String),
      });
      expect(run.stdout).toContain('--check: started, printed, stopped.');

      const chainConfig = jsonAfter(run.stdout, 'setChainConfig params:');
      expect(chainConfig).toStrictEqual({
        scope: 'eip155:31337',
        rpcUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/u),
        entryPoint: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/u),
        accountFactory: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/u),
        bundlerUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/u),
        paymasterUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/u),
        delegationEnvironment: expect.objectContaining({
          DelegationManager: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/u),
          EntryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
          implementations: expect.objectContaining({
            EIP7702StatelessDeleGatorImpl:
              expect.stringMatching(/^0x[0-9a-fA-F]{40}$/u),
          }),
        }),
      });
      const ipfsConfig = jsonAfter(run.stdout, 'setIpfsConfig params:');
      expect(ipfsConfig).toStrictEqual({
        apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/u),
      });
      expect(run.stdout).toContain(
        '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      );
      expect(run.stdout).toMatch(/balance +10000 ETH/u);
      expect(run.stdout).toContain('never use it on a real network');
      expect(run.stdout).toMatch(/CID +Qm[1-9A-HJ-NP-Za-km-z]{44}/u);
      expect(run.stdout).toContain(
        'companion origin https://keyring-snap.github.io',
      );

      // anvil, Alto and the IPFS node, each printed with its PID: all gone.
      const pids = [...run.stdout.matchAll(/pid (\d+)/gu)].map((match) =>
        Number(match[1]),
      );
      expect(pids).toHaveLength(3);
      expect(pids.filter(alive)).toStrictEqual([]);
      // anvil's state folder (and anything else made under TMPDIR) removed.
      expect(readdirSync(tmp)).toStrictEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('refuses a port already taken before starting anything, naming the port and the flag', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) =>
      holder.listen(0, '127.0.0.1', () => resolve()),
    );
    const { port } = holder.address() as AddressInfo;
    try {
      const run = await runDevnet([
        '--check',
        '--random-ports',
        '--chain-port',
        String(port),
      ]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `port ${port} (chain (anvil)) is already in use on 127.0.0.1`,
      );
      expect(run.stderr).toContain('--chain-port <n>');
      expect(run.stdout).not.toContain('pid');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('refuses an unknown flag or a bad port with the usage', async () => {
    const unknown = await runDevnet(['--chain-prot', '1']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Usage: npm run devnet');
    const bad = await runDevnet(['--port-base', '70000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port-base must be a port number');
  });
});
