import { describe, expect, it } from 'vitest';
import { deviceWords, resolveFollowUp } from './follow-up';

const identities = new Map([
  ['dp800', new Set(['dp800', 'series', 'programmable', 'linear', 'dc', 'power', 'supply', 'user', 'guide', 'dp832'])],
  ['skr', new Set(['btt', 'skr', 'mini', 'e3', 'v2.0', 'user', 'manual', 'board'])],
  ['vna', new Set(['nanovna-h', 'user', 'guide', 'vector', 'network', 'analyzer'])],
]);

describe('follow-up questions', () => {
  it('finds the words that name one device of the library', () => {
    expect(deviceWords('How do I set series mode on the DP832?', identities)).toEqual(['series', 'dp832']);
    // "user" and "guide" are in every identity: they name no device
    expect(deviceWords('Where is the user guide?', identities)).toEqual([]);
  });

  it("reads a question that names no device with the previous question's device and topic", () => {
    const history = [
      { role: 'user' as const, content: 'How do I set series mode on the DP832?' },
      { role: 'assistant' as const, content: 'Press Utility, then Series [1].' },
    ];
    expect(resolveFollowUp("and what's the max current then?", history, identities)).toBe("and what's the max current then? (series dp832 set mode)");
    // a question that names a device stands alone
    expect(resolveFollowUp('What current does the SKR Mini E3 bed output give?', history, identities)).toBe('What current does the SKR Mini E3 bed output give?');
    // a first question has nothing to follow
    expect(resolveFollowUp("and what's the max current then?", [], identities)).toBe("and what's the max current then?");
  });
});
