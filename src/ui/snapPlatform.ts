import type { DomainPlatform } from '../domain';
import { deriveKey } from '../keyring/keys';
import { emitEvent, listEntropySources, showConfirmation } from '../platform';
import { chainName, nativeAmount } from './chainNames';
import { saveState } from '../state/store';
import { confirmDialog } from './dialogs/confirm';
import { consentDialog } from './dialogs/consent';
import { grantDialog } from './dialogs/grant';
import { sendConfirmation } from './dialogs/sendConfirmation';

/**
 * The keyring's platform on MetaMask: state through snap_manageState, events through
 * snap_manageAccounts, keys through snap_getEntropy, and each confirmation the domain asks for
 * (`confirm`, `confirmConsent`, `confirmSend`, `confirmGrant`) a dialog of src/ui/dialogs/ shown through
 * snap_dialog. src/platform.ts makes every call; the domain never builds UI, it asks this
 * platform to confirm. The entry point (src/index.ts) hands it to `loadDomain`.
 */
export const snapPlatform: DomainPlatform = {
  saveState,
  emitEvent,
  deriveKey,
  listEntropySources,
  confirm: async (title, text) => showConfirmation(confirmDialog(title, text)),
  confirmConsent: async (consent) => showConfirmation(consentDialog(consent)),
  confirmSend: async (summary) =>
    showConfirmation(sendConfirmation(summary, chainName(summary.scope))),
  confirmGrant: async (review) =>
    showConfirmation(
      grantDialog(review, chainName(review.scope), (wei) =>
        nativeAmount(wei, review.scope),
      ),
    ),
};
