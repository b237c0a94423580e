import type { AgentEvent } from '@/lib/agent/events';
import { shownTool } from '@/lib/chat/plain-trail';
import { isIconName, type IconName } from '../ui/icons';

/** A tool's label and icon in the technical trail, as the turn describes it; the loop itself is "Agent". */
export function toolLabel(events: AgentEvent[], tool: string): { label: string; icon: IconName } {
  if (tool === 'agent') return { label: 'Agent', icon: 'route' };
  const { label, icon } = shownTool(events, tool);
  return { label, icon: isIconName(icon) ? icon : 'activity' };
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
