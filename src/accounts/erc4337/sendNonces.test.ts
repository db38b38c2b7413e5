import { SendNonces, sendNoncesOf, SUBMITTED_NONCE_TTL_MS } from './sendNonces';

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
