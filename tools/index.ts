/**
 * The tool registry the app hands to runTurn. Order matters only for display: it is the order the
 * decider sees them in. A new tool is one file plus one entry here.
 */
import type { AnyTool } from '@/lib/agent/contract';
import { colqwenSearch } from './colqwen-search';
import { fastVectorSearch } from './fast-vector-search';
import { hybridSearch } from './hybrid-search';
import { summarize } from './summarize';
import { textResponse } from './text-response';
import { visualInterpretation } from './visual-interpretation';

export const defaultTools: readonly AnyTool[] = [fastVectorSearch, colqwenSearch, hybridSearch, visualInterpretation, summarize, textResponse];
