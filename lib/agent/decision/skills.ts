/**
 * Skills: markdown workflow templates in skills/ (front-matter: name, tools, description; body:
 * when to use and the steps). The question is matched against each skill's text with BM25; a
 * matched skill guarantees its tools run and lends its steps to the decision prompt.
 */
import fs from 'node:fs';
import path from 'node:path';
import { terms } from '@/lib/text/analyze';
import { Bm25Index } from '@/lib/text/bm25';

export interface Skill {
  name: string;
  tools: string[];
  description: string;
  /** The markdown body: when to use it and the steps. */
  steps: string;
}

export interface SkillMatch {
  skill: Skill;
  score: number;
}

/** BM25 score a skill needs: about two distinctive terms, so one stray word does not pick a workflow. */
const SKILL_MIN_SCORE = 2;

export function parseSkill(markdown: string, fallbackName = 'skill'): Skill {
  const m = markdown.match(/^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/);
  if (!m) throw new Error(`skill ${fallbackName}: missing front-matter (--- name/tools/description ---)`);
  const fields: Record<string, string> = {};
  for (const line of m[1].split(/\r?\n/)) {
    const kv = line.match(/^([A-Za-z_][\w-]*)\s*:\s*(.*)$/);
    if (kv) fields[kv[1].toLowerCase()] = kv[2].trim();
  }
  const tools = (fields.tools ?? '')
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((t) => t.trim().replace(/^['"]|['"]$/g, ''))
    .filter(Boolean);
  const name = (fields.name ?? fallbackName).replace(/^['"]|['"]$/g, '');
  if (tools.length === 0) throw new Error(`skill ${name}: front-matter needs a tools list`);
  return { name, tools, description: (fields.description ?? '').replace(/^['"]|['"]$/g, ''), steps: m[2].trim() };
}

const cache = new Map<string, Skill[]>();

/** Skills in a folder (default: skills/ at the repo root), read once per process. */
export function loadSkills(dir = path.join(/*turbopackIgnore: true*/ process.cwd(), 'skills')): Skill[] {
  const cached = cache.get(dir);
  if (cached) return cached;
  let files: string[] = [];
  try {
    files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort();
  } catch {
    // No skills folder (e.g. a trimmed deployment): the loop works without skills.
  }
  const skills = files.map((f) => parseSkill(fs.readFileSync(path.join(dir, f), 'utf8'), f.replace(/\.md$/, '')));
  cache.set(dir, skills);
  return skills;
}

/** The best-matching skill for a question, or null when none is a clear match. */
export function matchSkill(question: string, skills: Skill[], minScore = SKILL_MIN_SCORE): SkillMatch | null {
  if (skills.length === 0) return null;
  // Name and description say what the skill is for; weigh them above the body by repeating them.
  const docs = skills.map((s) => terms(`${s.name.replace(/-/g, ' ')} ${s.description} ${s.description} ${s.steps}`));
  const scores = new Bm25Index(docs).scoreEach(terms(question));
  let best = -1;
  scores.forEach((s, i) => {
    if (best < 0 || s > scores[best]) best = i;
  });
  if (best < 0 || scores[best] < minScore) return null;
  return { skill: skills[best], score: Math.round(scores[best] * 1000) / 1000 };
}
