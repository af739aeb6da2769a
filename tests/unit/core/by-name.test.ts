// Lists of names in the order people expect: plain names without a locale collator, any other by the locale.
import { describe, expect, it } from 'vitest';
import { sortByName } from '../../../electron/core/util/by-name';

const sorted = (names: string[]) => sortByName([...names], (name) => name);

describe('sortByName', () => {
  it('sorts plain names case-insensitively, as the locale does', () => {
    const names = ['zeta pack', 'Alpha', 'beta', 'Lumia Core', 'lumia core 2', 'Tavern 10', 'Tavern 1'];
    expect(sorted(names)).toEqual(['Alpha', 'beta', 'Lumia Core', 'lumia core 2', 'Tavern 1', 'Tavern 10', 'zeta pack']);
    expect(sorted(names)).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('a list with any other character sorts by the locale, all of it (é among the e’s, not after z)', () => {
    expect(sorted(['Zed', 'Émile', 'Dora', 'Frank'])).toEqual(['Dora', 'Émile', 'Frank', 'Zed']);
  });

  it('names that differ only in case keep one order every time', () => {
    expect(sorted(['alpha', 'Alpha'])).toEqual(sorted(['Alpha', 'alpha']));
  });
});
