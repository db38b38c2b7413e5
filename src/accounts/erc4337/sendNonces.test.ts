import {
  LANDING_READS,
  landingPause,
  SendNonces,
  sendNoncesOf,
  SUBMITTED_NONCE_TTL_MS,
} from './sendNonces';

const SLOT = {
  chainId: 1n,
  entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
  sender: '0x3333333333333333333333333333333333333333',
} as const;

describe('SendNonces', () => {
  it('runs the sends of one account one after the other, failures included, and other accounts beside them', async () => {
    const nonces = new SendNonces();
    const order: string[] = [];
    const gate: { open?: () => void } = {};
    const first = nonces.run(SLOT, async () => {
      order.push('first starts');
      await new Promise<void>((resolve) => {
        gate.open = resolve;
      });
      order.push('first ends');
      throw new Error('refused');
    });
    const second = nonces.run(SLOT, async () => {
      order.push('second starts');
      return 'second';
    });
    const other = nonces.run({ ...SLOT, sender: SLOT.entryPoint }, async () => {
      order.push('other account');
      return 'other';
    });
    expect(await other).toBe('other');
    expect(order).toStrictEqual(['first starts', 'other account']);
    gate.open?.();
    await expect(first).rejects.toThrow('refused');
    expect(await second).toBe('second');
    expect(order).toStrictEqual([
      'first starts',
      'other account',
      'first ends',
      'second starts',
    ]);
  });

  it('gives the next nonce after an accepted one (same slot, any case), nothing after a refusal, and forgets it after the TTL', async () => {
    let now = 0;
    const nonces = new SendNonces(() => now);
    expect(await nonces.run(SLOT, async (floor) => floor)).toBe(0n);
    nonces.accepted(SLOT, 7n);
    nonces.accepted(SLOT, 3n); // never lowered
    const upper = {
      ...SLOT,
      sender: SLOT.sender.toUpperCase() as `0x${string}`,
    };
    expect(await nonces.run(upper, async (floor) => floor)).toBe(8n);
    expect(
      await nonces.run({ ...SLOT, chainId: 2n }, async (floor) => floor),
    ).toBe(0n);
    now += SUBMITTED_NONCE_TTL_MS;
    expect(await nonces.run(SLOT, async (floor) => floor)).toBe(0n);
  });

  it('after an accepted operation, drafts the next one once the EntryPoint’s nonce moved past it (the EntryPoint’s nonce then applies), reading it with growing pauses', async () => {
    const pauses: number[] = [];
    const nonces = new SendNonces(Date.now, async (ms) => {
      pauses.push(ms);
    });
    const readings = [7n, 7n, 7n, 8n];
    const reads: bigint[] = [];
    /** @returns The next reading of the EntryPoint's nonce. */
    const landed = async (): Promise<bigint> => {
      const reading = readings.shift() as bigint;
      reads.push(reading);
      return reading;
    };
    // nothing accepted yet: no read, no wait
    expect(await nonces.run(SLOT, async (floor) => floor, landed)).toBe(0n);
    expect(reads).toStrictEqual([]);
    nonces.accepted(SLOT, 7n);
    expect(await nonces.run(SLOT, async (floor) => floor, landed)).toBe(0n);
    expect(reads).toStrictEqual([7n, 7n, 7n, 8n]);
    expect(pauses).toStrictEqual([250, 375, 563]);
    // landed: forgotten, the next send reads nothing
    expect(await nonces.run(SLOT, async (floor) => floor, landed)).toBe(0n);
    expect(reads).toHaveLength(4);
  });

  it('after an accepted operation that does not land (or reads that fail), waits a bounded time, then drafts with the next nonce', async () => {
    const pauses: number[] = [];
    const nonces = new SendNonces(Date.now, async (ms) => {
      pauses.push(ms);
    });
    nonces.accepted(SLOT, 7n);
    let reads = 0;
    /** @returns Fails every other time, else the nonce of the operation still pending. */
    const landed = async (): Promise<bigint> => {
      reads += 1;
      if (reads % 2 === 0) {
        throw new Error('the node did not answer');
      }
      return 7n;
    };
    expect(await nonces.run(SLOT, async (floor) => floor, landed)).toBe(8n);
    expect(reads).toBe(LANDING_READS);
    expect(pauses).toHaveLength(LANDING_READS);
    expect(Math.max(...pauses)).toBe(2_000);
    const total = pauses.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeGreaterThan(60_000);
    expect(total).toBeLessThan(70_000);
    expect(landingPause(0)).toBe(250);
  });

  it('remembers the highest EOA account nonce signed with, per chain', () => {
    const nonces = new SendNonces();
    expect(nonces.lastAccountNonce(1n, SLOT.sender)).toBeUndefined();
    nonces.signedAccountNonce(1n, SLOT.sender, 5n);
    nonces.signedAccountNonce(1n, SLOT.sender, 2n);
    expect(nonces.lastAccountNonce(1n, SLOT.sender)).toBe(5n);
    expect(nonces.lastAccountNonce(2n, SLOT.sender)).toBeUndefined();
  });

  it('is one per snap instance (state store)', () => {
    const store = {};
    expect(sendNoncesOf(store)).toBe(sendNoncesOf(store));
    expect(sendNoncesOf({})).not.toBe(sendNoncesOf(store));
  });
});
