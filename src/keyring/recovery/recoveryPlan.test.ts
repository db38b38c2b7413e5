import fc from 'fast-check';

import {
  GapScan,
  packBatches,
  RECOVERY_LIMITS,
  searchedVersions,
} from './recoveryPlan';

/**
 * The gap rule written out directly, as the reference: walk the indices, count unused ones in a
 * row, stop at the `gap`-th.
 *
 * @param used - Whether each index 0, 1, 2, … was used.
 * @param gap - The gap limit.
 * @param maxIndex - The index bound.
 * @returns The found indices and how many were searched.
 */
function reference(
  used: boolean[],
  gap: number,
  maxIndex: number,
): { found: number[]; searched: number } {
  const found: number[] = [];
  let run = 0;
  for (let index = 0; index < Math.min(used.length, maxIndex); index += 1) {
    if (used[index]) {
      found.push(index);
      run = 0;
    } else {
      run += 1;
      if (run === gap) {
        return { found, searched: index + 1 };
      }
    }
  }
  return { found, searched: Math.min(used.length, maxIndex) };
}

describe('GapScan', () => {
  it('ends a lane at the 20th unused index in a row: 0 and 15 used, 36 searched, 40 never found', () => {
    const used = new Set([0, 15, 40]);
    const scan = new GapScan(20, 200);
    const found: number[] = [];
    while (scan.end === undefined) {
      for (const index of scan.window(RECOVERY_LIMITS.window)) {
        if (scan.record(index, used.has(index))) {
          found.push(index);
        }
      }
    }
    expect(found).toStrictEqual([0, 15]);
    expect(scan.searched).toBe(36);
    expect(scan.end).toBe('gap');
  });

  it('an empty lane is searched over exactly the gap limit', () => {
    const scan = new GapScan(20, 200);
    scan.window(20).forEach((index) => scan.record(index, false));
    expect(scan.end).toBe('gap');
    expect(scan.searched).toBe(20);
    expect(scan.window(20)).toStrictEqual([]);
  });

  it('stops at the index bound, saying so', () => {
    const scan = new GapScan(20, 30);
    expect(scan.window(20)).toHaveLength(20);
    scan.window(20).forEach((index) => scan.record(index, true));
    expect(scan.window(20)).toStrictEqual([
      20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
    ]);
    scan.window(20).forEach((index) => scan.record(index, index === 29));
    expect(scan.end).toBe('indexLimit');
    expect(scan.searched).toBe(30);
  });

  it('refuses an index out of order', () => {
    const scan = new GapScan(20, 200);
    expect(() => scan.record(1, true)).toThrow(RangeError);
  });

  it('agrees with the written-out rule for any usage, gap and window (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { maxLength: 120 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 130 }),
        (used, gap, window, maxIndex) => {
          const scan = new GapScan(gap, maxIndex);
          const found: number[] = [];
          for (
            let round = 0;
            round < 200 && scan.end === undefined;
            round += 1
          ) {
            const indices = scan.window(window);
            if (indices.length === 0 || indices[0] >= used.length) {
              break;
            }
            for (const index of indices) {
              if (index < used.length && scan.record(index, used[index])) {
                found.push(index);
              }
            }
          }
          const expected = reference(used, gap, maxIndex);
          expect(found).toStrictEqual(expected.found);
          expect(scan.searched).toBe(expected.searched);
        },
      ),
    );
  });
});

describe('packBatches', () => {
  it('packs whole items up to the cap, in order', () => {
    expect(packBatches([1, 2, 3, 4, 5], () => 2, 4)).toStrictEqual([
      [1, 2],
      [3, 4],
      [5],
    ]);
    expect(packBatches([], () => 2, 4)).toStrictEqual([]);
  });

  it('one window of an EOA lane and a smart-account lane fits one batch (80 calls ≤ 100)', () => {
    const items = Array.from(
      { length: 2 * RECOVERY_LIMITS.window },
      (_, at) => at,
    );
    expect(
      packBatches(items, () => 2, RECOVERY_LIMITS.maxCallsPerBatch),
    ).toHaveLength(1);
  });

  it('never exceeds the cap and keeps every item once (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10 }), { maxLength: 80 }),
        fc.integer({ min: 10, max: 100 }),
        (sizes, cap) => {
          const groups = packBatches(sizes, (size) => size, cap);
          expect(groups.flat()).toStrictEqual(sizes);
          for (const group of groups) {
            expect(
              group.reduce((sum, size) => sum + size, 0),
            ).toBeLessThanOrEqual(cap);
          }
        },
      ),
    );
  });
});

describe('searchedVersions', () => {
  it('searches every EntryPoint version for the erc4337-owner salts, v0.6 alone for the legacy ones', () => {
    expect(searchedVersions('erc4337-owner')).toStrictEqual([
      '0.6',
      '0.7',
      '0.8',
    ]);
    expect(searchedVersions('legacy')).toStrictEqual(['0.6']);
  });
});
