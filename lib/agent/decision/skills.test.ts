import { describe, expect, it } from 'vitest';
import { defaultTools } from '@/tools';
import { loadSkills, matchSkill, parseSkill } from './skills';

describe('skills', () => {
  const skills = loadSkills();

  it('loads the four workflow templates from skills/ with valid front-matter', () => {
    expect(skills.map((s) => s.name)).toEqual(['find-spec', 'maintenance-procedure', 'read-diagram', 'troubleshoot-error-code']);
    const toolNames = new Set(defaultTools.map((t) => t.name));
    for (const s of skills) {
      expect(s.description.length).toBeGreaterThan(20);
      expect(s.steps).toMatch(/^1\. /m);
      for (const tool of s.tools) expect(toolNames.has(tool)).toBe(true);
    }
  });

  it.each([
    ['Our 4925 drive keeps throwing error code 1391. Is that a real fault?', 'troubleshoot-error-code'],
    ['The display shows alarm E04 and the unit trips', 'troubleshoot-error-code'],
    ['What is the maximum input voltage and supply current?', 'find-spec'],
    ['On the GPIO pinout drawing, which signal sits on the left header?', 'read-diagram'],
    ['According to the wiring diagram, what goes between the board and the spindle?', 'read-diagram'],
    ['How often should I replace the air filter?', 'maintenance-procedure'],
    ['How do I calibrate and clean the sensor?', 'maintenance-procedure'],
  ])('%s → %s', (question, name) => {
    expect(matchSkill(question, skills)?.skill.name).toBe(name);
  });

  it.each(['hello there', 'What is the warranty period?', 'Who wrote this?'])('no skill for %j', (question) => {
    expect(matchSkill(question, skills)).toBeNull();
  });

  it('parses front-matter lists in either form and rejects a template without tools', () => {
    const s = parseSkill('---\nname: x\ntools: hybrid_search, "text_response"\ndescription: d\n---\n1. step');
    expect(s).toEqual({ name: 'x', tools: ['hybrid_search', 'text_response'], description: 'd', steps: '1. step' });
    expect(() => parseSkill('---\nname: y\n---\nbody')).toThrow(/tools/);
    expect(() => parseSkill('no front matter')).toThrow(/front-matter/);
  });
});
