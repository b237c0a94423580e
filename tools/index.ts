/**
 * The tool registry the app hands to runTurn: the order the deciders see the tools in (and the
 * offline decider's tie-break between searches). A new tool is its file (a Tool with its display,
 * default input and search order) plus one entry here; tools/registry.test.ts shows one.
 */
import type { AnyTool } from '@/lib/agent/contract';
import { colqwenSearch } from './colqwen-search';
import { fastVectorSearch } from './fast-vector-search';
import { hybridSearch } from './hybrid-search';
import { summarize } from './summarize';
import { textResponse } from './text-response';
import { visualInterpretation } from './visual-interpretation';

export const defaultTools: readonly AnyTool[] = [fastVectorSearch, colqwenSearch, hybridSearch, visualInterpretation, summarize, textResponse];
