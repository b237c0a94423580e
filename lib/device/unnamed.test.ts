/**
 * Questions asked without their device's name, on generated manuals: the family's variants and
 * the sample manual, their profiles read from their own PDFs by the real parser.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openPdf } from '@/lib/ingest/pdf';
import { familyQuestions, generateFamily, type FamilyVariant } from '@/lib/sample/family';
import { generateSampleManual, SAMPLE_MACHINE, SAMPLE_QUESTIONS } from '@/lib/sample';
import { deviceProfile, type DeviceProfile } from './identity';
import { withoutDeviceNames } from './unnamed';

async function profileOf(pdf: Uint8Array, fileName: string): Promise<DeviceProfile> {
  const doc = await openPdf(pdf);
  try {
    const pages = [];
    for (let n = 1; n <= Math.min(3, doc.numPages); n++) pages.push((await doc.extractPage(n)).text);
    return deviceProfile({ id: fileName, title: doc.info.title ?? '', fileName }, pages);
  } finally {
    await doc.close();
  }
}

let variants: FamilyVariant[] = [];
const profiles = new Map<string, DeviceProfile>();
let sample: DeviceProfile;

beforeAll(async () => {
  const family = await generateFamily(6);
  variants = family.map((f) => f.variant);
  for (const f of family) profiles.set(f.variant.fileName, await profileOf(f.pdf, f.variant.fileName));
  sample = await profileOf((await generateSampleManual()).pdf, 'sample.pdf');
}, 60_000);

describe('withoutDeviceNames', () => {
  it('turns every named family question into one naming no variant, its article and preposition gone', () => {
    const named = familyQuestions(variants).filter((q) => q.id.endsWith('-named'));
    for (const q of named) {
      const p = profiles.get(q.manual)!;
      const out = withoutDeviceNames(q.question, p);
      for (const v of variants) expect(out).not.toContain(v.model);
      expect(out).not.toMatch(/korvin/i);
      expect(out).not.toMatch(/\b(?:the|of|on)\?$/);
      expect(out).toMatch(/\?$/);
    }
    const relay = named.find((q) => q.id.includes('relay'))!;
    expect(withoutDeviceNames(relay.question, profiles.get(relay.manual)!)).toBe('What is the output relay rating?');
  });

  it('keeps the kind a question names the device by, and words that only share a name word in prose', () => {
    const v = variants[2];
    const p = profiles.get(v.fileName)!;
    expect(p.kind).toMatch(/regulator/);
    expect(withoutDeviceNames(`Which sensor does the ${v.model} regulator take?`, p)).toBe('Which sensor does the regulator take?');
    expect(withoutDeviceNames(`For the Korvin ${v.model}, which sensor is used?`, p)).toBe('Which sensor is used?');
  });

  it('takes the sample manual name out of its own questions, and leaves questions naming no device alone', () => {
    const model = SAMPLE_MACHINE.model;
    const naming = SAMPLE_QUESTIONS.filter((q) => q.question.includes(model));
    expect(naming.length).toBeGreaterThan(0);
    for (const q of naming) {
      const out = withoutDeviceNames(q.question, sample);
      expect(out).not.toContain(model);
      expect(out.split(' ').length).toBeGreaterThan(3);
    }
    const plain = SAMPLE_QUESTIONS.find((q) => !q.question.includes(model) && !q.question.includes('Acme'))!;
    expect(withoutDeviceNames(plain.question, sample)).toBe(plain.question);
  });

  it('removes the tokens the recognizer read as naming, however the profile spells the device', () => {
    const p = profiles.get(variants[0].fileName)!;
    expect(withoutDeviceNames('What is the supply voltage of the Kx9?', p, { also: ['Kx9'] })).toBe('What is the supply voltage?');
  });

  it("keeps the profile's designations that do not name the device in its library", () => {
    const v = variants[0];
    const p = profiles.get(v.fileName)!;
    const question = `What is the supply voltage of the ${v.model}?`;
    expect(withoutDeviceNames(question, p, { names: (t) => t !== v.model })).toBe(question);
  });
});
