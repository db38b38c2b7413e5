/**
 * The companion site: the snap's accounts, new accounts, chains, the IPFS server and approvals,
 * through wallet_invokeKeyring and wallet_invokeSnap. No framework and no build step: each section
 * is a module of companion/, laid out in this order.
 */
import accounts from './companion/accounts.js';
import approvals from './companion/approvals.js';
import chains from './companion/chains.js';
import ipfs from './companion/ipfs.js';
import newAccount from './companion/newAccount.js';
import { startPage } from './page.js';

startPage([accounts, newAccount, chains, approvals, ipfs]);
