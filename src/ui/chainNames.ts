/**
 * The page's names of chains and amounts of their currencies: src/utils/chainNames.ts, shared with
 * the dialogs and the domain's confirmation texts.
 */
export {
  chainName,
  nativeAmount,
  readableAmount,
  roundedWei,
} from '../utils/chainNames';
