export { classifyQuestion, decideByRules, defaultInputFor, rulesDecider, type QuestionClass, type QuestionKind } from './rules';
export { createLlmDecider, decisionPrompt, decisionSchema, DEFAULT_FAST_PATH_CONFIDENCE } from './llm';
export { loadSkills, matchSkill, parseSkill, type Skill, type SkillMatch } from './skills';
export type { Decider, Decision, DecisionContext, ToolOption } from './types';
