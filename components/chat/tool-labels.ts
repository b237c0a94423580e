import type { IconName } from '../ui/icons';

/** How each agent tool is named and drawn in the trail. Unknown tools fall back to their id. */
const TOOL_LABELS: Record<string, { label: string; icon: IconName }> = {
  fast_vector_search: { label: 'Quick text search', icon: 'search' },
  hybrid_search: { label: 'Text and page search', icon: 'layers' },
  colqwen_search: { label: 'Page image search', icon: 'image' },
  visual_interpretation: { label: 'Reading the page image', icon: 'image' },
  summarize: { label: 'Summarizing the findings', icon: 'sparkle' },
  text_response: { label: 'Writing the answer', icon: 'file' },
  agent: { label: 'Agent', icon: 'route' },
};

export function toolLabel(tool: string): { label: string; icon: IconName } {
  return TOOL_LABELS[tool] ?? { label: tool.replace(/_/g, ' '), icon: 'activity' };
}

export const DECIDER_LABELS: Record<string, string> = {
  rules: 'rules',
  llm: 'model',
  skill: 'workflow',
  forced: 'budget',
  auto: 'automatic',
};

export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
