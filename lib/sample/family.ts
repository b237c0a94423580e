/**
 * A product line of near-identical manuals: one invented product, a bench temperature
 * regulator, in six or more variants whose manuals share nearly all their text and differ in the
 * values of their specification table, their error codes and their model designation. A question
 * naming a variant must be answered from that variant's manual; one naming none must ask which.
 * Every name and value here is invented (maker "Korvin", models "TR-610" …).
 */
import { PDFDocument } from 'pdf-lib';
import { drawPageFrame, embedFonts, PageWriter } from './layout';

const FAMILY_MAKER = 'Korvin';

export interface FamilyVariant {
  /** "TR-630" */
  model: string;
  fileName: string;
  /** The specification table's values. */
  supplyVoltage: string;
  relayRating: string;
  sensorRange: string;
  /** Code → meaning; the codes differ between variants. */
  errors: Array<[string, string]>;
}

export interface FamilyManual {
  variant: FamilyVariant;
  pdf: Uint8Array;
}

const FAULTS = [
  'sensor open circuit',
  'sensor short circuit',
  'heater relay stuck',
  'internal memory checksum error',
  'overtemperature cut-off',
  'supply voltage too low',
  'fan stalled',
];

/** The variants: n ≥ 6, each with its own values and codes (deterministic). */
function familyVariants(n = 6): FamilyVariant[] {
  if (n < 6) throw new Error('a family has at least 6 variants');
  return Array.from({ length: n }, (_, i) => {
    const model = `TR-6${i + 1}0`;
    return {
      model,
      fileName: `korvin-${model.toLowerCase().replace('-', '')}-manual.pdf`,
      supplyVoltage: `${12 + i * 6} V DC`,
      relayRating: `${3 + i} A at 250 V AC`,
      sensorRange: `-${20 + 10 * i} to ${300 + 50 * i} °C`,
      // Two codes shared in number but not in meaning, and one of the variant's own.
      errors: [
        [`E${i + 1}1`, FAULTS[i % FAULTS.length]],
        [`E${i + 1}2`, FAULTS[(i + 2) % FAULTS.length]],
        [`E${i + 1}3`, FAULTS[(i + 4) % FAULTS.length]],
      ],
    };
  });
}

/** One variant's manual: a cover, an overview, the specifications and the error codes. */
async function generateFamilyManual(v: FamilyVariant): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${FAMILY_MAKER} ${v.model} Temperature Regulator User Manual`);
  doc.setAuthor(FAMILY_MAKER);
  const fonts = await embedFonts(doc);
  const pages = 3;
  const page = (n: number) => {
    const p = doc.addPage();
    drawPageFrame(p, fonts, n, pages, n === 1 ? null : { left: `${FAMILY_MAKER} ${v.model}`, right: 'User Manual' }, `${v.model} user manual`);
    return new PageWriter(p, fonts);
  };

  const cover = page(1);
  cover.h1(`${FAMILY_MAKER} ${v.model} Temperature Regulator`);
  cover.paragraph('User Manual');
  cover.paragraph(
    `The ${v.model} is a bench temperature regulator for soldering stations, small ovens and hot plates. ` +
      `Read this manual before installing the ${v.model}. Keep it with the regulator.`,
  );

  const overview = page(2);
  overview.h2('Specifications');
  overview.table(
    [{ header: 'Parameter', width: 180, bold: true }, { header: `${v.model}` }],
    [
      ['Supply voltage', v.supplyVoltage],
      ['Output relay rating', v.relayRating],
      ['Sensor input range', v.sensorRange],
      ['Display', 'four-digit LED'],
    ],
    { caption: `Table 1: ${v.model} specifications` },
  );
  overview.h2('Installation');
  overview.paragraph(`Mount the ${v.model} in a panel cut-out and connect the sensor to terminals 1 and 2. The relay output is on terminals 5 and 6.`);

  const errors = page(3);
  errors.h2('Error codes');
  errors.paragraph(`The ${v.model} shows an error code on its display and opens the output relay until the fault is cleared.`);
  errors.table(
    [{ header: 'Code', width: 80, mono: true }, { header: 'Meaning' }],
    v.errors.map(([c, m]) => [c, m]),
    { caption: `Table 2: ${v.model} error codes` },
  );
  return doc.save();
}

/** The whole family's manuals. */
export async function generateFamily(n = 6): Promise<FamilyManual[]> {
  return Promise.all(familyVariants(n).map(async (variant) => ({ variant, pdf: await generateFamilyManual(variant) })));
}

/** A question about a family manual, in the eval's format (../shared/eval/README.md). */
interface FamilyQuestion {
  id: string;
  manual: string;
  question: string;
  answer_keywords: string[];
  pages: number[];
  kind: string;
}

/**
 * Questions about each variant, named ("… of the Korvin TR-630?") and unnamed ("What is the output
 * relay rating?": the same words for every variant, each asked about its own manual). The eval's
 * public mixed library asks them beside the public sets.
 */
export function familyQuestions(variants: readonly FamilyVariant[]): FamilyQuestion[] {
  return variants.flatMap((v) => {
    const tag = v.model.toLowerCase().replace('-', '');
    const [code, meaning] = v.errors[0];
    return [
      {
        id: `fam-${tag}-relay-named`,
        manual: v.fileName,
        question: `What is the output relay rating of the ${FAMILY_MAKER} ${v.model}?`,
        answer_keywords: [v.relayRating.split(' at ')[0]],
        pages: [2],
        kind: 'fact',
      },
      {
        id: `fam-${tag}-code-named`,
        manual: v.fileName,
        question: `What does error ${code} mean on the ${v.model}?`,
        answer_keywords: [meaning],
        pages: [3],
        kind: 'table',
      },
      {
        id: `fam-${tag}-relay-unnamed`,
        manual: v.fileName,
        question: 'What is the output relay rating?',
        answer_keywords: [v.relayRating.split(' at ')[0]],
        pages: [2],
        kind: 'fact',
      },
      {
        id: `fam-${tag}-supply-unnamed`,
        manual: v.fileName,
        question: 'What supply voltage does the regulator need?',
        answer_keywords: [v.supplyVoltage.split(' DC')[0]],
        pages: [2],
        kind: 'fact',
      },
    ];
  });
}
