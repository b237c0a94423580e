import { describe, expect, it } from 'vitest';
import { type AnyTool } from '@/lib/agent/contract';
import { chunk, page, resultOf, scriptedTool, startingTree } from '../testing/turn';
import type { TreeData } from '../contract';
import { classifyQuestion, decideByRules } from './rules';
import type { ToolOption } from './types';

const names = ['fast_vector_search', 'colqwen_search', 'hybrid_search', 'visual_interpretation', 'summarize', 'text_response'];
const tools: Record<string, AnyTool> = Object.fromEntries(names.map((n) => [n, scriptedTool({ name: n, run: () => [] })]));

const tree = (question: string, over: Partial<TreeData> = {}) => startingTree(question, {} as TreeData['services'], over);

function options(unavailable: string[] = []): ToolOption[] {
  return names.map((n) => ({ tool: tools[n], availability: unavailable.includes(n) ? { ok: false, reason: 'not here' } : { ok: true } }));
}

const decide = (t: TreeData, unavailable: string[] = ['text_response', 'visual_interpretation', 'summarize']) =>
  decideByRules({ tree: t, options: options(unavailable), signal: new AbortController().signal, recordUsage: () => {} });

describe('the selection matrix', () => {
  it.each([
    // Every kind starts with the fused hybrid search (its page leg is the page search).
    ['Show me the wiring diagram for the spindle relay', 'visual', 'hybrid_search'],
    ['On the ESP32-POE GPIO pinout drawing, which signal sits next to GPIO0?', 'visual', 'hybrid_search'],
    ['What does the photo on page 3 show?', 'visual', 'hybrid_search'],
    ['Which LED lights up when the fan runs?', 'visual', 'hybrid_search'],
    ['What does error code 1391 mean on the 4925 drive?', 'table', 'hybrid_search'],
    ['Which menu holds the calibration settings?', 'table', 'hybrid_search'],
    ['Which pin is the chip select of IMU3?', 'table', 'hybrid_search'],
    ['What is the input impedance?', 'factual', 'hybrid_search'],
    ['How much current does the board draw?', 'factual', 'hybrid_search'],
    ['My DUT sits between two fixtures that I cannot calibrate out and the traces look odd afterwards, what now?', 'general', 'hybrid_search'],
    ['Why does the display flicker?', 'general', 'hybrid_search'],
  ])('%s → %s → %s', (question, kind, tool) => {
    expect(classifyQuestion(question).kind).toBe(kind);
    const d = decide(tree(question));
    expect(d.tool).toBe(tool);
    expect(d.decider).toBe('rules');
    expect(d.input).toEqual({ query: question });
  });

  it('is confident about strong visual and table cues, less about the fallback', () => {
    expect(classifyQuestion('wiring diagram of the pump').confidence).toBeGreaterThanOrEqual(0.85);
    expect(classifyQuestion('error code E04').confidence).toBeGreaterThanOrEqual(0.85);
    expect(classifyQuestion('Why does the display flicker after a while?').confidence).toBeLessThan(0.85);
  });

  it('falls back to the next search when the preferred one is unavailable, and says so', () => {
    const d = decide(tree('Show me the wiring diagram'), ['hybrid_search', 'text_response', 'visual_interpretation']);
    expect(d.tool).toBe('colqwen_search');
    expect(d.reason).toContain('hybrid_search is not available');
    // a factual question falls back to dense passages
    expect(decide(tree('What is the input impedance?'), ['hybrid_search', 'text_response', 'visual_interpretation']).tool).toBe('fast_vector_search');
  });

  it('visual question: after the page search, reads the best page with the VLM when available', () => {
    const t = tree('Which pin of the J1 connector diagram carries HEATER?');
    t.environment.add('colqwen_search', resultOf([page('m1', 7, { score: 0.9 }), page('m1', 2, { score: 0.4 })], 'pages'), 0);
    const d = decide(t, []);
    expect(d.tool).toBe('visual_interpretation');
    expect(d.input).toEqual({ prompt: t.question, page: 7, manual_id: 'm1' });
    // without a VLM the rules answer from the page passages instead
    expect(decide(t, ['visual_interpretation']).tool).not.toBe('visual_interpretation');
  });

  it('answers once the evidence covers the question', () => {
    const t = tree('What is the motor current?', { iteration: 1 });
    t.environment.add('fast_vector_search', resultOf([chunk('The motor current is 6.8 A at full load.'), chunk('Clean the strainer monthly.')]), 0);
    const d = decide(t, []);
    expect(d.tool).toBe('text_response');
    expect(d.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it('searches again with another tool when the evidence is weak, then answers anyway', () => {
    const t = tree('What is the warranty period of the pump?', { iteration: 1 });
    t.environment.add('hybrid_search', resultOf([chunk('Clean the strainer monthly.'), chunk('The pump motor is rated 230 V.')]), 0);
    const second = decide(t, []);
    expect(second.tool).toBe('fast_vector_search');
    expect(second.reason).toContain('weak evidence');
    t.environment.add('fast_vector_search', resultOf([chunk('The pump housing is cast iron.')]), 1);
    expect(decide(t, []).tool).toBe('text_response');
  });

  it('retries a search once after a recoverable error, naming the error', () => {
    const t = tree('Why does the display flicker?', {
      iteration: 1,
      errors: [{ tool: 'hybrid_search', message: 'index busy', recoverable: true, iteration: 0 }],
    });
    const d = decide(t);
    expect(d.tool).toBe('hybrid_search');
    expect(d.reason).toContain('index busy');
  });

  it('widens a terse follow-up with the previous question', () => {
    const history = [
      { role: 'user' as const, content: 'What fuse protects the PX-200 motor?' },
      { role: 'assistant' as const, content: 'A 10 A slow-blow fuse [1].' },
    ];
    expect(decide(tree('And the rated power?', { history })).input).toEqual({ query: 'What fuse protects the PX-200 motor? And the rated power?' });
    const standalone = 'What is the supply voltage of the CB-9 board?';
    expect(decide(tree(standalone, { history })).input).toEqual({ query: standalone });
  });
});
