/**
 * The example app: any website can ask the snap, through MetaMask, what an account can do
 * (EIP-5792 wallet_getCapabilities) and send several calls as one batch (wallet_sendCalls). Each
 * section is a module of dapp/, laid out in this order.
 */
import account from './dapp/account.js';
import batch from './dapp/batch.js';
import { startPage } from './page.js';

startPage([account, batch]);
