import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '@/lib/agent/events';
import { exampleQuestions, followUps, headingLeaf } from './suggestions';
import { SAMPLE_MACHINE } from '@/lib/sample/facts';

// Headings as the ingest pipeline produces them for the generated sample manual.
const SEEDS = [
  { manualId: 'hx', heading: '1 Safety notes', text: 'The HX-200 controls a hydraulic press.' },
  { manualId: 'hx', heading: '2 Technical specifications > Table 2-1 Electrical data', text: 'Parameter | Value Supply voltage | 24 V DC ±10 %' },
  { manualId: 'hx', heading: '3 Electrical installation > 3.1 Wiring diagram', text: 'HX-200 CONTROLLER J3 SENSOR' },
  { manualId: 'hx', heading: '5 Error codes', text: 'When the controller detects a fault it shows the error code.' },
  { manualId: 'hx', heading: '5 Error codes > Table 5-1 Error codes', text: 'Code | Meaning | Action E01 | Supply voltage low' },
  { manualId: 'hx', heading: '7 Pressure transducer calibration', text: 'Calibrate the transducer input every 12 months on the HX-200.' },
];

type ResultEvent = Extract<AgentEvent, { type: 'result' }>;

/** The event of a hybrid_search that found `hits`, `ms` into the turn. */
const hybridResult = (hits: ResultEvent['hits'], ms: number): ResultEvent => ({
  type: 'result',
  tool: 'hybrid_search',
  name: 'hybrid',
  refs: hits.map((h) => h.ref),
  hits,
  metadata: {},
  count: hits.length,
  time_ms: ms,
  t: ms,
});

describe('suggestions', () => {
  it('cleans heading leaves', () => {
    expect(headingLeaf('2 Technical specifications > Table 2-1 Electrical data')).toBe('Electrical data');
    expect(headingLeaf('3 Electrical installation > 3.1 Wiring diagram')).toBe('Wiring diagram');
  });

  it('derives example questions from the ready manuals’ headings', () => {
    const qs = exampleQuestions([{ id: 'hx', title: 'acme-hx200-manual' }], SEEDS);
    expect(qs).toEqual([
      'What does error E01 mean on the HX-200?',
      'What supply voltage does the HX-200 need?',
      'How is the HX-200 wired? Show me the wiring diagram.',
      'How do I calibrate the pressure transducer?',
    ]);
  });

  it('spreads examples over several manuals and falls back to the title', () => {
    const qs = exampleQuestions(
      [
        { id: 'hx', title: 'acme-hx200-manual' },
        { id: 'x', title: 'Mystery Guide' },
      ],
      SEEDS,
      3,
    );
    expect(qs).toHaveLength(3);
    expect(qs).toContain('What is covered in Mystery Guide?');
    expect(exampleQuestions([], [])).toEqual([]);
  });

  it('suggests 2–3 follow-ups from the question kind and the retrieved headings, never repeating a question', () => {
    const events = [
      hybridResult(
        [
          {
            ref: 1,
            kind: 'chunk',
            manualId: 'hx',
            manualTitle: 'acme-hx200-manual',
            page: 6,
            heading: '5 Error codes > Table 5-1 Error codes',
            text: 'E03 | Transducer wire break',
            score: 0.9,
          },
          {
            ref: 2,
            kind: 'chunk',
            manualId: 'hx',
            manualTitle: 'acme-hx200-manual',
            page: 9,
            heading: '8 Troubleshooting > Table 8-1 Symptom, cause and remedy',
            text: 'HX-200 symptoms',
            score: 0.7,
          },
          {
            ref: 3,
            kind: 'chunk',
            manualId: 'hx',
            manualTitle: 'acme-hx200-manual',
            page: 4,
            heading: '3 Electrical installation > 3.1 Wiring diagram',
            text: 'HX-200 J3',
            score: 0.6,
          },
        ],
        10,
      ),
    ];
    const qs = followUps('My HX-200 shows E03, what does it mean?', events);
    expect(qs.length).toBeGreaterThanOrEqual(2);
    expect(qs.length).toBeLessThanOrEqual(3);
    expect(qs[0]).toBe('What should I check first to clear E03?');
    expect(new Set(qs).size).toBe(qs.length);

    const again = followUps('What supply voltage does the HX-200 need?', events, ['How do I troubleshoot the HX-200 when it does not work as expected?']);
    expect(again).toContain('What are the other electrical specifications?');
    expect(again).not.toContain('How do I troubleshoot the HX-200 when it does not work as expected?');

    // A suggestion that only rephrases the question is dropped.
    const spec: AgentEvent = {
      ...events[0],
      hits: [
        {
          ref: 1,
          kind: 'chunk',
          manualId: 'hx',
          page: 3,
          heading: '2 Technical specifications > Table 2-1 Electrical data',
          text: 'Supply voltage | 24 V DC HX200',
          score: 1,
        },
      ],
    } as AgentEvent;
    const rephrased = followUps('What supply voltage does the HX-200 controller need?', [spec]);
    expect(rephrased.some((q) => /supply voltage/i.test(q))).toBe(false);
  });
});

describe('follow-ups read as real questions', () => {
  it('asks how for task headings, what for topics, and nothing for labels and fragments', async () => {
    const { headingQuestion } = await import('./suggestions');
    expect(headingQuestion('To Set the LAN Parameters')).toBe('How do I set the LAN parameters?');
    expect(headingQuestion('Setting the Output Voltage')).toBe('How do I set the output voltage?');
    // A task verb by its stem, written plain or in its -ing form; a plural noun is a topic.
    expect(headingQuestion('Configuring the Pressure Sensor')).toBe('How do I configure the pressure sensor?');
    expect(headingQuestion('Wiring the HX-200')).toBe('How do I wire the HX-200?');
    expect(headingQuestion('Settings Menu')).toBe('What does the manual say about settings menu?');
    expect(headingQuestion('Output Voltage Range')).toBe('What does the manual say about output voltage range?');
    for (const junk of ['note', 'Note', 'NOTE:', 'Table of Contents', 'Figure 3', 'the unit is then', 'Press the key.', '3.2.1', 'Document Title', 'A | B']) {
      expect(headingQuestion(junk), junk).toBeNull();
    }
  });

  it('never offers a question the answer does not ground', () => {
    const result = hybridResult(
      [
        { ref: 1, kind: 'chunk', manualId: 'dp', manualTitle: 'DP800 User Guide', page: 40, heading: 'Note', text: 'Note: the output', score: 0.9 },
        {
          ref: 2,
          kind: 'chunk',
          manualId: 'dp',
          manualTitle: 'DP800 User Guide',
          page: 41,
          heading: 'Remote Control > To Set the LAN Parameters',
          text: 'Press Utility',
          score: 0.8,
        },
      ],
      5,
    );
    const qs = followUps('How do I set the over-voltage protection?', [result]);
    expect(qs).toEqual(['How do I set the LAN parameters?']);
    expect(qs.join(' ')).not.toMatch(/about note|tools and parts/i);
  });
});

describe('suggestions name the device once', () => {
  it('the sample manual: its title’s device, after a single "the"', () => {
    const questions = exampleQuestions([{ id: 'hx', title: SAMPLE_MACHINE.title }], SEEDS);
    expect(questions.some((q) => q.includes('the HX-200 Hydraulic Press Controller'))).toBe(true);
    for (const q of questions) expect(q).not.toMatch(/\bthe the\b|Service Manual/i);
  });

  it('a title that starts with an article and ends in document words', () => {
    const title = 'The Quillon charge board Specification and operation manual';
    const questions = exampleQuestions([{ id: 'q', title }], [{ manualId: 'q', heading: '1 Safety', text: 'Disconnect the board first.' }]);
    expect(questions).toEqual(['What safety precautions apply before working on the Quillon charge board?']);
  });
});
