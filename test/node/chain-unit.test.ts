import { encodeAbiParameters } from 'viem';

import {
  countParams,
  createRpcClient,
  decodeRevertData,
  JsonRpcError,
  maskUrl,
  redact,
  sortUniqueLogs,
  splitByParams,
  type RpcLog,
} from '../../src/chain';
import { checkLogFilter } from '../../src/chain/validation';

const addr = (i: number): `0x${string}` => `0x${i.toString(16).padStart(40, '0')}`;
const topic = (i: number): `0x${string}` => `0x${i.toString(16).padStart(64, '0')}`;

describe('chain adapter: pure helpers', () => {
  it('counts parameters as the clarification says: 3 addresses + 2 alternatives = 5', () => {
    const filter = checkLogFilter({ address: [addr(1), addr(2), addr(3)], topics: [null, [topic(1), topic(2)]] });
    expect(countParams(filter)).toBe(5);
  });

  it('splits the largest list so each part fits, covering every value once', () => {
    const filter = checkLogFilter({ address: [addr(1), addr(2), addr(3)], topics: [[topic(9)], Array.from({ length: 12 }, (_, i) => topic(i))] });
    const parts = splitByParams(filter, 6);
    expect(parts.every((p) => countParams(p) <= 6)).toBe(true);
    expect(parts.flatMap((p) => p.topics[1])).toEqual(filter.topics[1]);
    expect(parts.every((p) => p.addresses?.length === 3)).toBe(true);
    const wide = checkLogFilter({ address: Array.from({ length: 9 }, (_, i) => addr(i + 1)), topics: [Array.from({ length: 9 }, (_, i) => topic(i))] });
    const wideParts = splitByParams(wide, 5);
    expect(wideParts.every((p) => countParams(p) <= 5)).toBe(true);
    const combos = new Set(wideParts.flatMap((p) => p.addresses!.flatMap((a) => p.topics[0]!.map((t) => `${a}${t}`))));
    expect(combos.size).toBe(81);
  });

  it('orders logs by (blockNumber, logIndex) and drops duplicates', () => {
    const log = (block: number, index: number, tx = '0x01'): RpcLog =>
      ({ blockNumber: `0x${block.toString(16)}`, logIndex: `0x${index.toString(16)}`, blockHash: `0xb${block}`, transactionHash: tx }) as RpcLog;
    const sorted = sortUniqueLogs([log(0x10, 2), log(2, 0x10), log(0x10, 1), log(2, 0x10), log(2, 3)]);
    expect(sorted.map((l) => `${l.blockNumber}:${l.logIndex}`)).toEqual(['0x2:0x3', '0x2:0x10', '0x10:0x1', '0x10:0x2']);
  });

  it('decodes revert payloads', () => {
    expect(decodeRevertData('0x').kind).toBe('empty');
    expect(decodeRevertData(`0x4e487b71${encodeAbiParameters([{ type: 'uint256' }], [0x32n]).slice(2)}`).reason).toBe(
      'Panic(0x32): array index out of bounds',
    );
    expect(decodeRevertData('0x08c379a0ff').kind).toBe('custom');
    expect(decodeRevertData('0x12345678').reason).toBe('custom error 0x12345678');
  });

  it('masks keys in URLs and free text', () => {
    const url = 'https://sepolia.example.io/v3/abcdef0123456789';
    expect(maskUrl(url)).toBe('https://sepolia.example.io/v3/***');
    expect(maskUrl('https://x.io/v3/key/extra')).toBe('https://x.io/v3/***/extra');
    expect(redact(`failed to reach ${url} (key abcdef0123456789)`, url)).toBe('failed to reach https://sepolia.example.io/v3/*** (key ***)');
  });

  it('surfaces a JSON-RPC error sent with HTTP 400 as JsonRpcError', async () => {
    const client = createRpcClient({
      url: 'https://x.io/v3/k',
      fetch: async (_url, init) => {
        const { id } = JSON.parse(init.body) as { id: number };
        return { ok: false, status: 400, text: async () => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message: 'bad request' } }) };
      },
    });
    const error = (await client.chainId().catch((e: unknown) => e)) as JsonRpcError;
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32600);
  });
});
