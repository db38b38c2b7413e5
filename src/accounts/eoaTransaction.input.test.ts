import type { KeyringRequest } from '@metamask/keyring-api';
import { privateKeyToAddress } from 'viem/accounts';

import { parseEoaRequest } from './eoa';
import { summarizeRequest } from '../keyring/requestSummary';

const ADDRESS = privateKeyToAddress(
  '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
);
const TO = '0x00000000000000000000000000000000000070ce';
const BASE = {
  from: ADDRESS,
  to: TO,
  chainId: '0x1',
  gas: '0x5208',
  maxFeePerGas: '0x1',
  maxPriorityFeePerGas: '0x1',
};

/**
 * @param tx - The transaction fields beyond BASE.
 * @returns The call data the summary shows and the call data that would be signed (or the error).
 */
function shownAndSigned(tx: Record<string, string>): {
  shown: string | undefined;
  signed: unknown;
} {
  const request: KeyringRequest = {
    id: '00000000-0000-4000-8000-000000000000',
    scope: 'eip155:1',
    account: '00000000-0000-4000-8000-000000000001',
    origin: 'https://dapp.example',
    request: { method: 'eth_signTransaction', params: [{ ...BASE, ...tx }] },
  };
  const shown = summarizeRequest(request).find((line) =>
    line.label.startsWith('Call data'),
  )?.value;
  let signed: unknown;
  try {
    const task = parseEoaRequest(ADDRESS, 'eip155:1', 'eth_signTransaction', [
      { ...BASE, ...tx },
    ]);
    signed = task.method === 'eth_signTransaction' ? task.tx.data : undefined;
  } catch (error) {
    signed = error;
  }
  return { shown, signed };
}

describe('eth_signTransaction: the call data shown is the call data signed', () => {
  it('signs `input` when `data` is absent, as the summary shows it', () => {
    const { shown, signed } = shownAndSigned({ input: '0xdeadbeef01' });
    expect(shown).toBe('0xdeadbeef01');
    expect(signed).toBe('0xdeadbeef01');
  });

  it('accepts data and input when they are the same bytes', () => {
    const { signed } = shownAndSigned({
      data: '0xdeadbeef01',
      input: '0xDEADBEEF01',
    });
    expect(signed).toBe('0xdeadbeef01');
  });

  it('refuses data and input that differ, naming input, never the bytes', () => {
    const { signed } = shownAndSigned({
      data: '0xdeadbeef01',
      input: '0xcafebabe02',
    });
    expect(signed).toMatchObject({
      code: -32602,
      message:
        'Invalid eth_signTransaction params at 0.input: differs from data; send the call data once, as data',
    });
  });
});
