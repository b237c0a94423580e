/**
 * The tool registry. Order matters only for display: it is the order the decider sees them in.
 * A new tool is one file plus one entry here.
 */
import { colqwenSearch } from './colqwen-search';
import { fastVectorSearch } from './fast-vector-search';
import { hybridSearch } from './hybrid-search';
import { summarize } from './summarize';
import { textResponse } from './text-response';
import type { AnyTool } from './tool';
import { visualInterpretation } from './visual-interpretation';

export const defaultTools: readonly AnyTool[] = [fastVectorSearch, colqwenSearch, hybridSearch, visualInterpretation, summarize, textResponse];

export function getTool(name: string, tools: readonly AnyTool[] = defaultTools): AnyTool | undefined {
  return tools.find((t) => t.name === name);
}

export { colqwenSearch, fastVectorSearch, hybridSearch, summarize, textResponse, visualInterpretation };
export * from './tool';
