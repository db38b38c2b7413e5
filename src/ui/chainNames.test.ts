import { formatEther, parseEther } from 'viem';

import { readableAmount, roundedWei } from './chainNames';

describe('amounts rounded for reading', () => {
  it.each([
    ['0.98963', '0.9896'],
    ['0.98965', '0.9897'],
    ['1.49997812587647', '1.5'],
    ['1.5', '1.5'],
    ['10000', '10000'],
    ['0.0001', '0.0001'],
    ['0.00019283434119691', '0.0002'],
    ['0.00009283434119691', '0.000093'],
    ['0.000000000000000001', '0.000000000000000001'],
    ['0.000000000000000015', '0.000000000000000015'],
    ['0.000000000000000155', '0.00000000000000016'],
    ['0', '0'],
  ])('%s ETH reads as %s ETH', (exact, shown) => {
    expect(formatEther(roundedWei(parseEther(exact)))).toBe(shown);
    expect(readableAmount(parseEther(exact), 'eip155:31337')).toBe(
      `${shown} ETH`,
    );
  });

  it('never rounds a non-zero amount to 0, and stays within half of the rounding unit', () => {
    for (let wei = 1n; wei < 10n ** 20n; wei = wei * 7n + 3n) {
      const shown = roundedWei(wei);
      expect(shown).toBeGreaterThan(0n);
      const unit =
        wei >= 10n ** 14n
          ? 10n ** 14n
          : 10n ** BigInt(Math.max(wei.toString().length - 2, 0));
      const error = shown > wei ? shown - wei : wei - shown;
      expect(2n * error).toBeLessThanOrEqual(unit);
    }
  });

  it('names the currency of a chain known to use another one', () => {
    expect(
      readableAmount(`0x${parseEther('2.123456').toString(16)}`, 'eip155:137'),
    ).toBe('2.1235 POL');
  });
});
