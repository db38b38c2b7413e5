import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { createTx } from '@ethereumjs/tx';
import { randomBytes } from 'node:crypto';
import {
  bytesToHex,
  createPublicClient,
  defineChain,
  http,
  numberToHex,
  parseEther,
} from 'viem';

import { installKeyringSnap } from './harness';
import { startAnvil } from '../../devnet/anvil';
import type { Anvil } from '../../devnet/anvil';

describe('a transaction signed by the snap is accepted by a real node (anvil)', () => {
  let anvil: Anvil;

  beforeAll(async () => {
    anvil = await startAnvil();
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it.each([
    [
      'EIP-1559',
      {
        type: '0x2',
        maxFeePerGas: numberToHex(parseEther('0.00000005')),
        maxPriorityFeePerGas: '0x3b9aca00',
      },
    ],
    [
      'legacy (EIP-155)',
      { type: '0x0', gasPrice: numberToHex(parseEther('0.00000005')) },
    ],
  ])(
    '%s: eth_sendRawTransaction of the rebuilt transaction moves the value',
    async (_name, fees) => {
      const chain = defineChain({
        id: anvil.chainId,
        name: 'anvil',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [anvil.url] } },
      });
      const client = createPublicClient({ chain, transport: http(anvil.url) });
      const harness = await installKeyringSnap();
      const sender = await harness.createAccount({
        privateKey: bytesToHex(randomBytes(32)),
      });
      const recipient = '0x000000000000000000000000000000000000bEEF';
      await client.request({
        method: 'anvil_setBalance' as never,
        params: [sender.address, numberToHex(parseEther('1'))] as never,
      });
      const before = await client.getBalance({ address: recipient });

      const tx = {
        ...fees,
        from: sender.address,
        to: recipient,
        chainId: numberToHex(anvil.chainId),
        nonce: numberToHex(
          await client.getTransactionCount({ address: sender.address }),
        ),
        gasLimit: '0x5208',
        value: numberToHex(parseEther('0.25')),
        data: '0x',
      };
      const { result } = await harness.submit(
        sender,
        'eth_signTransaction',
        [tx],
        `eip155:${anvil.chainId}`,
      );
      const common = createCustomCommon({ chainId: anvil.chainId }, Mainnet);
      const raw = bytesToHex(
        createTx({ ...tx, ...result } as never, { common }).serialize(),
      );

      const hash = await client.sendRawTransaction({
        serializedTransaction: raw,
      });
      const receipt = await client.waitForTransactionReceipt({
        hash,
        timeout: 10_000,
      });
      expect(receipt.status).toBe('success');
      expect(receipt.from.toLowerCase()).toBe(sender.address.toLowerCase());
      expect((await client.getBalance({ address: recipient })) - before).toBe(
        parseEther('0.25'),
      );
    },
  );
});
