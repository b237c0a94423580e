import { describe, expect, it } from 'vitest';
import { deviceWords, identitiesByDevice } from '@/lib/device/identity';
import type { ChatTurn } from './contract';
import { resolveFollowUp } from './follow-up';

const searched = (q: string, h: readonly ChatTurn[], ids: ReadonlyMap<string, ReadonlySet<string>>) => resolveFollowUp(q, h, ids).search;

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
    expect(searched("and what's the max current then?", history, identities)).toBe("and what's the max current then? (series dp832 set mode)");
    // a question that names a device stands alone
    expect(searched('What current does the SKR Mini E3 bed output give?', history, identities)).toBe('What current does the SKR Mini E3 bed output give?');
    // a first question has nothing to follow
    expect(searched("and what's the max current then?", [], identities)).toBe("and what's the max current then?");
  });
});

describe('a library holding copies of one manual', () => {
  // Five copies of the HX-200 manual under other file names, and one other device.
  const manuals = [
    ...['hx200', 'hx200-long', 'hx200-copy', 'hx200-phone', 'hx200-scan'].map((f) => ({ id: f, title: 'Acme HX-200 Controller Manual', fileName: `${f}.pdf` })),
    { id: 'ps3', title: 'Acme PS-3 Bench Supply Manual', fileName: 'ps3.pdf' },
  ];
  const perManual = new Map(manuals.map((m) => [m.id, new Set(['acme', ...m.title.toLowerCase().split(' ').slice(1), m.id])]));

  it('counts the copies as one device, so their name still names it', () => {
    const byDevice = identitiesByDevice(manuals, perManual);
    expect(byDevice.size).toBe(2);
    expect(deviceWords('What does error E05 mean on the HX-200?', byDevice)).toEqual(['hx-200']);
    // Counted per file, the name is in five of six identities and names nothing.
    expect(deviceWords('What does error E05 mean on the HX-200?', perManual)).toEqual([]);
  });

  it('counts a renamed copy (another title, the same pages) as the same device', () => {
    const renamed = [...manuals, { id: 'renamed', title: 'Press controller', fileName: 'scan.pdf' }];
    const words = new Map([...perManual, ['renamed', new Set(['press', 'controller', 'hx-200', 'scan'])]]);
    const content = (id: string) => (id.startsWith('hx200') || id === 'renamed' ? 'the HX-200 pages' : id);
    expect(identitiesByDevice(renamed, words, content).size).toBe(2);
    expect(deviceWords('What does error E05 mean on the HX-200?', identitiesByDevice(renamed, words, content))).toEqual(['hx-200']);
    // By title alone the renamed copy is a third device, and the name is in two of three.
    expect(deviceWords('What does error E05 mean on the HX-200?', identitiesByDevice(renamed, words))).toEqual([]);
  });

  it('reads a question naming the device on its own after another question', () => {
    const history = [
      { role: 'user' as const, content: 'What supply voltage does the HX-200 controller need?' },
      { role: 'assistant' as const, content: '24 V DC [1].' },
    ];
    const question = 'What does error E05 mean on the HX-200?';
    expect(searched(question, history, identitiesByDevice(manuals, perManual))).toBe(question);
  });
});

describe('a follow-up that swaps a qualifier', () => {
  const hx = new Map([
    ['hx', new Set(['acme', 'hx-200', 'controller', 'manual'])],
    ['qx', new Set(['zentro', 'qx-40', 'service', 'manual'])],
  ]);
  const asked = (content: string) => [
    { role: 'user' as const, content },
    { role: 'assistant' as const, content: 'Output 1 delivers 2 A [1].' },
  ];

  it('is the previous question with the qualifier of the same kind replaced', () => {
    const history = asked('What is the maximum current of output 1 on the HX-200?');
    expect(searched('and output 3?', history, hx)).toBe('What is the maximum current of output 3 on the HX-200?');
    expect(searched('And what about Output 2?', history, hx)).toBe('What is the maximum current of Output 2 on the HX-200?');
    expect(searched('What about J4?', asked('Which cable goes to J3 on the HX-200?'), hx)).toBe('Which cable goes to J4 on the HX-200?');
  });

  it('appends the previous subject, without the replaced qualifier, when it asks more', () => {
    const history = asked('What is the maximum current of output 1 on the HX-200?');
    expect(searched('and the ripple of output 3?', history, hx)).toBe('and the ripple of output 3? (hx-200 maximum current)');
    // a qualifier of another kind is appended to, not swapped
    expect(searched('and at step 3?', history, hx)).toBe('and at step 3? (hx-200 maximum current output 1)');
  });

  it('shows the reader a sentence: the swapped question, or the earlier question it continues', () => {
    const history = asked('What is the maximum current of output 1 on the HX-200?');
    expect(resolveFollowUp('and output 3?', history, hx).shown).toBe('What is the maximum current of output 3 on the HX-200?');
    expect(resolveFollowUp('and the ripple of output 3?', history, hx).shown).toBe(
      'and the ripple of output 3? — continuing “What is the maximum current of output 1 on the HX-200?”',
    );
    expect(resolveFollowUp('What is the ripple on the QX-40?', history, hx)).toEqual({
      search: 'What is the ripple on the QX-40?',
      shown: 'What is the ripple on the QX-40?',
    });
  });

  it('keeps the subject along a chain of follow-ups', () => {
    const history = [...asked('What is the maximum current of output 1 on the HX-200?'), ...asked('and output 3?')];
    expect(searched('and output 2?', history, hx)).toBe('What is the maximum current of output 2 on the HX-200?');
  });
});
