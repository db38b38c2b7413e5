/**
 * The example app: connects to the snap, reads what an account can do (wallet_getCapabilities),
 * sends two calls as one batch (EIP-5792 wallet_sendCalls, version 2.0.0) and follows it with
 * wallet_getCallsStatus until it is settled.
 */
import {
  byId,
  connectSnap,
  invokeSnap,
  onClick,
  say,
  SNAP_ID,
} from './common.js';

const STATUS = {
  100: 'Waiting to be included…',
  200: 'Done: both calls happened.',
  400: 'Not sent: the bundle failed before reaching the chain.',
  500: 'Failed on the chain: neither call happened.',
  600: 'Partly failed on the chain.',
};

/**
 * The chain number field as EIP-5792 writes it (hex).
 *
 * @returns {string} The chain id, `0x…`.
 */
function chainId() {
  return `0x${BigInt(byId('chain').value.trim()).toString(16)}`;
}

/**
 * One call of the form: `to`, and the amount and data when given (amount in wei, as hex).
 *
 * @param {number} index - 1 or 2.
 * @returns {{ to: string, value?: string, data?: string }} The call.
 */
function call(index) {
  const value = byId(`value-${index}`).value.trim();
  const data = byId(`data-${index}`).value.trim();
  return {
    to: byId(`to-${index}`).value.trim(),
    ...(value ? { value: `0x${BigInt(value).toString(16)}` } : {}),
    ...(data ? { data } : {}),
  };
}

/**
 * Ask for the bundle's status until it is settled (every second, at most five minutes).
 *
 * @param {string} id - The bundle id.
 */
async function follow(id) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const status = await invokeSnap('wallet_getCallsStatus', [id]);
    byId('progress').textContent = STATUS[status.status] ?? 'Unknown state.';
    byId('progress').dataset.status = String(status.status);
    if (status.status !== 100) {
      const hash = status.receipts?.[0]?.transactionHash;
      if (hash) {
        byId('progress').textContent += ` Transaction ${hash}.`;
      }
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  byId('progress').textContent = 'Still waiting: check again later.';
}

onClick('connect', async () => {
  await connectSnap();
  byId('connected').textContent = `Connected to ${SNAP_ID}`;
  say('Connected.');
});

onClick('capabilities', async () => {
  const abilities = await invokeSnap('wallet_getCapabilities', [
    byId('from').value.trim(),
    [chainId()],
  ]);
  const here = abilities[chainId()];
  byId('abilities').textContent = here
    ? `Sends several calls at once${
        here.paymasterService?.supported ? '; fees can be sponsored' : ''
      }.`
    : 'This account cannot send on this chain.';
});

onClick('send', async () => {
  byId('progress').textContent = 'Confirm in MetaMask…';
  const { id } = await invokeSnap('wallet_sendCalls', [
    {
      version: '2.0.0',
      from: byId('from').value.trim(),
      chainId: chainId(),
      atomicRequired: true,
      calls: [call(1), call(2)],
    },
  ]);
  byId('progress').dataset.id = id;
  say('Sent.');
  await follow(id);
});
