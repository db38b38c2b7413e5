/**
 * The devnet's ERC-20 paymaster service: `@pimlico/mock-paymaster@0.0.7` (Pimlico's SingletonPaymaster
 * v0.6 / v0.7 / v0.8 in verifying and ERC-20 modes, `pimlico_getTokenQuotes`, ERC-7677) run without
 * prool (whose Node >= 22 requirement this project does not meet): its `setup` and
 * `createRpcHandler` (`_esm/setup.js`, `_esm/relay.js`; the package exports only `.`) behind a
 * small HTTP server on 127.0.0.1. An ES module, so devnet/token-paymaster.ts runs it as a child
 * process.
 *
 * Two changes to the stock mock, both documented in docs/decisions.md:
 * - it signs the exchange rate and post-op gas it quotes for its test token (the stock one signs
 *   30,000,000 and 100,000 whatever it quoted; Alto 0.0.20 then estimates the post-op gas at
 *   maxFeePerGas 1 wei, where the charge rounds to 0, and the operation fails in its postOp);
 * - a context naming a token it does not serve makes the stock mock reject a promise nobody
 *   awaits, which ends the process: here it is logged and the service keeps running.
 *
 * Test hooks (`POST /_fixture/hostile` with the token given by `--token`): `{ mode }` makes every
 * later reply hostile (`rate` signs 1,000 times the quoted rate, `paymaster` names another
 * paymaster, `postOpGas` quotes and asks a huge post-op gas, `oversized` answers paymaster data
 * longer than any real one, `sponsorInToken` answers a request for plain sponsorship, context `{}`,
 * with its signed ERC-20 mode data for its test token, as if the context had named it),
 * `{ mode: null }` ends it. `GET /ping` answers when ready.
 *
 * Usage: node token-paymaster-server.mjs --anvil URL --alto URL --port N --token T
 */
import { createServer } from 'node:http';

const MOCK = new URL(
  '../node_modules/@pimlico/mock-paymaster/_esm/',
  import.meta.url,
);
const { constants } = await import(new URL('constants.js', MOCK).href);
const { setup } = await import(new URL('setup.js', MOCK).href);
const { createRpcHandler } = await import(new URL('relay.js', MOCK).href);
const { getChain } = await import(new URL('helpers/utils.js', MOCK).href);
const { erc20Address } = await import(
  new URL('helpers/erc20-utils.js', MOCK).href
);
const { createWalletClient, http, numberToHex } = await import('viem');
const { privateKeyToAccount } = await import('viem/accounts');

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, index, all) =>
      arg.startsWith('--') ? [[arg.slice(2), all[index + 1]]] : [],
    ),
);

/** What the stock mock quotes for its test token (relay.js): token units per 10^18 wei, and gas. */
const QUOTED = { exchangeRate: 0x5cc717fbb3450c0000n, postOpGas: 0xc350n };
constants.exchangeRate = QUOTED.exchangeRate;
constants.postOpGasOverhead = QUOTED.postOpGas;

process.on('unhandledRejection', (reason) => {
  process.stderr.write(
    `token paymaster: ignored rejection: ${String(reason)}\n`,
  );
});

const signer = createWalletClient({
  chain: await getChain(args.anvil),
  // the mock's own signer key (a test key, as in the mock's prool instance)
  account: privateKeyToAccount(`0x${'bb'.repeat(32)}`),
  transport: http(args.anvil),
});
await setup({ anvilRpc: args.anvil, paymasterSigner: signer.account.address });
const handle = createRpcHandler({
  altoRpc: args.alto,
  anvilRpc: args.anvil,
  paymasterSigner: signer,
});

/** @type {string | null} */
let hostile = null;

/**
 * Make a reply hostile (test hook).
 *
 * @param {string} method - The JSON-RPC method.
 * @param {any} result - The mock's result.
 * @returns {any} The result to send.
 */
function tamper(method, result) {
  if (!hostile || !result || typeof result !== 'object') {
    return result;
  }
  if (method === 'pimlico_getTokenQuotes' && hostile === 'postOpGas') {
    return {
      quotes: result.quotes.map((quote) => ({
        ...quote,
        postOpGas: numberToHex(40_000_000n),
      })),
    };
  }
  if (method === 'pm_getPaymasterStubData' && hostile === 'postOpGas') {
    return { ...result, paymasterPostOpGasLimit: numberToHex(40_000_000n) };
  }
  if (method !== 'pm_getPaymasterData') {
    return result;
  }
  if (hostile === 'paymaster') {
    return { ...result, paymaster: `0x${'12'.repeat(20)}` };
  }
  if (hostile === 'oversized') {
    return {
      ...result,
      paymasterData: `${result.paymasterData}${'ab'.repeat(4096)}`,
    };
  }
  if (hostile === 'rate') {
    // ERC-20 mode layout: mode(1) flags(1) validUntil(6) validAfter(6) token(20) postOpGas(16) rate(32)
    const data = result.paymasterData;
    const at = 2 + 2 * (1 + 1 + 6 + 6 + 20 + 16);
    const rate = BigInt(`0x${data.slice(at, at + 64)}`) * 1000n;
    return {
      ...result,
      paymasterData: `${data.slice(0, at)}${rate.toString(16).padStart(64, '0')}${data.slice(at + 64)}`,
    };
  }
  return result;
}

/**
 * The request the mock answers: with `sponsorInToken`, an ERC-7677 request whose context names no
 * token is answered as if it named the test token (test hook).
 *
 * @param {any} body - The JSON-RPC request.
 * @returns {any} The request to answer.
 */
function asked(body) {
  const params = Array.isArray(body?.params) ? body.params : [];
  if (
    hostile !== 'sponsorInToken' ||
    !String(body?.method).startsWith('pm_getPaymaster') ||
    params[3]?.token
  ) {
    return body;
  }
  return {
    ...body,
    params: [...params.slice(0, 3), { token: erc20Address }],
  };
}

const server = createServer((request, response) => {
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size <= 1024 * 1024) {
      chunks.push(chunk);
    }
  });
  request.on('end', () => {
    /**
     * Answer the request.
     *
     * @param {number} status - HTTP status.
     * @param {unknown} body - JSON body.
     */
    const reply = (status, body) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/ping') {
      reply(200, { ok: true });
      return;
    }
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      reply(400, { error: 'not JSON' });
      return;
    }
    if (request.url === '/_fixture/hostile') {
      if (request.headers['x-fixture-token'] !== args.token) {
        reply(403, { error: 'forbidden' });
        return;
      }
      hostile = body.mode ?? null;
      reply(200, { ok: true });
      return;
    }
    const { id } = body;
    // the mock's schema takes numeric ids only
    Promise.resolve(handle({ body: { ...asked(body), id: 1 } }, undefined))
      .then((answer) =>
        reply(200, {
          ...answer,
          id,
          ...(answer.result === undefined
            ? {}
            : { result: tamper(body.method, answer.result) }),
        }),
      )
      .catch((error) =>
        reply(200, {
          jsonrpc: '2.0',
          id,
          error: { code: -32603, message: String(error?.message ?? error) },
        }),
      );
  });
});
server.listen(Number(args.port), '127.0.0.1');
