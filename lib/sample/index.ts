/**
 * The repo's own sample manual: generation plus the files `npm start` and the eval harness read.
 * Files land in one folder (default DATA_DIR/sample):
 *   acme-hx200-manual.pdf            the manual
 *   acme-hx200-ground-truth.json     { manual, sha256, pages, questions, ... }
 *   acme-hx200-ground-truth.jsonl    one question per line, dev-qa.jsonl format
 */
import fs from 'node:fs';
import path from 'node:path';
import { SAMPLE_GROUND_TRUTH_FILE, SAMPLE_MANUAL_FILE, SAMPLE_QUESTIONS_FILE, type SampleQuestion } from './facts';
import { generateSampleManual, type SampleGroundTruth, type SampleManual } from './generate';

export * from './facts';
export { generateSampleManual, type SampleManual } from './generate';

export interface SampleManualFiles {
  pdfPath: string;
  groundTruthPath: string;
  questionsPath: string;
  /** False when every file already existed and nothing was written. */
  created: boolean;
}

function sampleManualPaths(dir: string): Omit<SampleManualFiles, 'created'> {
  return {
    pdfPath: path.join(dir, SAMPLE_MANUAL_FILE),
    groundTruthPath: path.join(dir, SAMPLE_GROUND_TRUTH_FILE),
    questionsPath: path.join(dir, SAMPLE_QUESTIONS_FILE),
  };
}

/** One question per line with ", " / ": " separators, exactly as dev-qa.jsonl is written, so files diff cleanly. */
function questionsJsonl(groundTruth: SampleGroundTruth): string {
  const value = (x: unknown): string => (Array.isArray(x) ? `[${x.map(value).join(', ')}]` : JSON.stringify(x));
  const line = (q: SampleQuestion) =>
    `{${Object.entries(q)
      .map(([k, v]) => `${JSON.stringify(k)}: ${value(v)}`)
      .join(', ')}}`;
  return groundTruth.questions.map(line).join('\n') + '\n';
}

/** Writes via a temp file + rename so a crash never leaves a half-written PDF that looks "present". */
function writeAtomic(file: string, data: Uint8Array | string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/** Generates the manual and (over)writes all three files into `dir`. */
export async function writeSampleManual(dir: string, manual?: SampleManual): Promise<SampleManualFiles> {
  const { pdf, groundTruth } = manual ?? (await generateSampleManual());
  fs.mkdirSync(dir, { recursive: true });
  const paths = sampleManualPaths(dir);
  writeAtomic(paths.pdfPath, pdf);
  writeAtomic(paths.groundTruthPath, JSON.stringify(groundTruth, null, 2) + '\n');
  writeAtomic(paths.questionsPath, questionsJsonl(groundTruth));
  return { ...paths, created: true };
}

/**
 * For first start: writes the sample manual only if a file is missing, so a user's data dir is
 * never rewritten behind their back (and the existing PDF keeps its hash).
 */
export async function ensureSampleManual(dir: string): Promise<SampleManualFiles> {
  const paths = sampleManualPaths(dir);
  if (Object.values(paths).every((p) => fs.existsSync(p))) return { ...paths, created: false };
  return writeSampleManual(dir);
}
