/**
 * The trained and chosen policies a turn applies. They travel in its services
 * (AgentServices.policies), so two turns that run at once may apply different ones: the eval's
 * cross-validation folds, a per-library model.
 */
import { SHIPPED_CLARIFY_POLICY, type ClarifyPolicy } from '@/lib/answer/clarify';
import { SHIPPED_FORM_POLICY, type FormPolicy } from '@/lib/answer/form';
import type { LinearModel } from '@/lib/ranking/model';
import { SHIPPED_RANKING_MODEL } from '@/lib/ranking/rank';
import { SHIPPED_NAMED_DEVICE_POLICY, type NamedDevicePolicy } from './device-context';

export interface TurnPolicies {
  /** Orders the candidate pages (lib/ranking/rank.ts). */
  ranking: LinearModel;
  /** When a reply quotes and when it shows the closest pages (lib/answer/form.ts). */
  form: FormPolicy;
  /** When a reply asks "Which device?" (lib/answer/clarify.ts). */
  clarify: ClarifyPolicy;
  /** What a device the question names does to the search (./device-context.ts). */
  namedDevice: NamedDevicePolicy;
}

/** The policies that ship, chosen on every public question set by `npm run eval -- --train`. */
export const SHIPPED_POLICIES: Readonly<TurnPolicies> = {
  ranking: SHIPPED_RANKING_MODEL,
  form: SHIPPED_FORM_POLICY,
  clarify: SHIPPED_CLARIFY_POLICY,
  namedDevice: SHIPPED_NAMED_DEVICE_POLICY,
};
