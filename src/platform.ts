import { emitSnapKeyringEvent } from '@metamask/keyring-snap-sdk';
import { Box, Heading, Text as TextLine } from '@metamask/snaps-sdk/jsx';

import type { KeyringPlatform } from './keyring';
import { deriveKey } from './keys';
import type { StateSaver } from './state';
import { saveState } from './state';
import { consentDialog } from './ui/consent';
import { sendConfirmation } from './ui/SendConfirmation';

/**
 * The snap platform behind the Keyring: snap_manageState, keyring events
 * (snap_manageAccounts), snap_dialog and snap_getEntropy.
 */
export const snapPlatform: KeyringPlatform & { saveState: StateSaver } = {
  saveState,
  emitEvent: async (event, data) => emitSnapKeyringEvent(snap, event, data),
  deriveKey,
  confirm: async (title, text) => {
    const answer = await snap.request({
      method: 'snap_dialog',
      params: {
        type: 'confirmation',
        content: Box({
          children: [
            Heading({ children: title }),
            TextLine({ children: text }),
          ],
        }),
      },
    });
    return answer === true;
  },
  confirmConsent: async (consent) => {
    const answer = await snap.request({
      method: 'snap_dialog',
      params: { type: 'confirmation', content: consentDialog(consent) },
    });
    return answer === true;
  },
  confirmSend: async (summary) => {
    const answer = await snap.request({
      method: 'snap_dialog',
      params: { type: 'confirmation', content: sendConfirmation(summary) },
    });
    return answer === true;
  },
};
