/**
 * Ground truth for the generated sample manual (an invented machine: the Acme HX-200 hydraulic
 * press controller). Questions use the same shape as ../shared/eval/dev-qa.jsonl so the eval
 * harness runs over the sample unchanged. generate.ts draws every value quoted here onto the page
 * listed in `pages`; generate.test.ts proves it by parsing the PDF back.
 */

export const SAMPLE_MANUAL_FILE = 'acme-hx200-manual.pdf';
export const SAMPLE_GROUND_TRUTH_FILE = 'acme-hx200-ground-truth.json';
export const SAMPLE_QUESTIONS_FILE = 'acme-hx200-ground-truth.jsonl';

export const SAMPLE_MACHINE = {
  maker: 'Acme Industrial Controls',
  model: 'HX-200',
  name: 'Acme HX-200 Hydraulic Press Controller',
  documentNumber: 'HX200-IM-EN',
  revision: 'C',
  title: 'Acme HX-200 Hydraulic Press Controller - Installation, Operation and Service Manual',
} as const;

type QuestionKind = 'fact' | 'table' | 'visual' | 'procedure' | 'multi-hop' | 'unanswerable';

/** One line of dev-qa.jsonl. */
export interface SampleQuestion {
  id: string;
  manual: string;
  question: string;
  /** 1-3 short strings a correct answer must contain; empty for unanswerable questions. */
  answer_keywords: string[];
  /** 1-based PDF page indices; empty for unanswerable questions. */
  pages: number[];
  kind: QuestionKind;
}

/** What each page holds, in order (page n = index n-1). The generator draws exactly these pages. */
export const SAMPLE_PAGES = [
  { page: 1, title: 'Cover', contains: 'Title, model, document number and revision, vector drawing of the unit' },
  { page: 2, title: '1 Safety notes', contains: 'Contents list; DANGER/WARNING/CAUTION notices; qualified personnel; intended use' },
  { page: 3, title: '2 Technical specifications', contains: 'Ruled two-column specification table (electrical, pressure, mechanical, environment)' },
  {
    page: 4,
    title: '3 Electrical installation',
    contains: 'Vector wiring diagram: G1 PSU, F2, X1, J3/B1 transducer, J5/Y1/Y2 valves, J6/S0 E-stop, J7 RS-485; colour legend',
  },
  {
    page: 5,
    title: '4 Identification',
    contains: 'Raster photo of the rating plate and service label (fuse F1, service PIN only in the image); type-code table',
  },
  { page: 6, title: '5 Error codes', contains: 'Ruled table E01-E12: code, meaning, action' },
  { page: 7, title: '6 Maintenance', contains: 'Maintenance schedule table, tightening-torque table, numbered service procedure' },
  { page: 8, title: '7 Pressure transducer calibration', contains: 'Numbered calibration procedure, check-point table, service parameter table' },
  { page: 9, title: '8 Troubleshooting', contains: 'Ruled symptom / cause / remedy table' },
  { page: 10, title: '9 Spare parts and service', contains: 'Spare-parts table, service contact, disposal, revision history' },
] as const;

export const SAMPLE_PAGE_COUNT = SAMPLE_PAGES.length;

const q = (id: string, kind: QuestionKind, pages: number[], question: string, answer_keywords: string[]): SampleQuestion => ({
  id,
  manual: SAMPLE_MANUAL_FILE,
  question,
  answer_keywords,
  pages,
  kind,
});

export const SAMPLE_QUESTIONS: readonly SampleQuestion[] = [
  q(
    's01',
    'fact',
    [2],
    'Before I work on the press, which valve do I open to release the stored hydraulic pressure, and what must the system gauge read before I start?',
    ['V9', '0 bar'],
  ),
  q('s02', 'fact', [2], 'What safety category and performance level does the HX-200 emergency-stop safety relay achieve?', ['Category 3', 'PL d']),
  q('s03', 'table', [3], 'What supply voltage does the HX-200 controller need, and what is its maximum current draw with all valves energised?', [
    '24 V DC',
    '3.5 A',
  ]),
  q('s04', 'table', [3], 'What IP rating does the HX-200 enclosure have, and how much does the unit weigh?', ['IP65', '2.3 kg']),
  q('s05', 'table', [3], 'What signal does the HX-200 expect from the pressure transducer, and what is the highest system pressure it can control?', [
    '20 mA',
    '350 bar',
  ]),
  q(
    's06',
    'visual',
    [4],
    'On the HX-200 wiring diagram, which controller connector does the pressure transducer B1 plug into, and what colour is its signal wire?',
    ['J3', 'white'],
  ),
  q('s07', 'visual', [4], 'Which HX-200 connector do the emergency-stop contacts S0 wire into, and what wire colour does the diagram use for them?', [
    'J6',
    'red',
  ]),
  q(
    's08',
    'visual',
    [4],
    'According to the wiring diagram, which fuse protects the +24 V line between the power supply G1 and the controller, and what is its rating?',
    ['F2', '4 A'],
  ),
  q('s09', 'visual', [5], 'What fuse is fitted as F1 inside the HX-200, and what is the spare-part number for it?', ['T6.3A', 'AC-FU-0630']),
  q('s10', 'visual', [5], 'What is the factory service-menu PIN of the HX-200?', ['4071']),
  q('s11', 'table', [6], 'The HX-200 display shows E05. What does that mean, and at what pressure does it trip?', ['overpressure', '360 bar']),
  q('s12', 'table', [6], 'What does error E11 mean on the HX-200, and at what internal temperature does it trip?', ['temperature', '75']),
  q('s13', 'multi-hop', [4, 6], 'My HX-200 shows E03. What kind of fault is that, and what colour is the transducer signal wire I should trace?', [
    'wire break',
    'white',
  ]),
  q('s14', 'procedure', [7], 'What torque do I tighten the X1 terminal screws to, and what torque for the enclosure cover screws?', ['0.6 Nm', '1.2 Nm']),
  q('s15', 'table', [7], 'How often does the HX-200 backup battery need replacing, and what type is it?', ['5 years', 'CR2032']),
  q(
    's16',
    'procedure',
    [8],
    'How do I calibrate the HX-200 pressure transducer: which service parameter do I use, and at what reference pressure do I set the span?',
    ['P-07', '200 bar'],
  ),
  q('s17', 'table', [8], 'Which HX-200 parameter sets the Modbus baud rate, and what is its factory default?', ['P-21', '19200']),
  q('s18', 'table', [9], 'The press pressure keeps oscillating around the set point. What should I change on the HX-200?', ['P-12', '20 %']),
  q('s19', 'table', [9], 'The Modbus master gets no reply from the HX-200. What should I check on the controller and on the bus?', ['P-20', '120 ohm']),
  q('s20', 'table', [10], 'What is the Acme part number for a replacement pressure transducer for the HX-200?', ['AC-PT-400']),
  q('s21', 'unanswerable', [], 'What is the maximum RS-485 cable length for the HX-200 Modbus line at 115200 baud?', []),
  q('s22', 'unanswerable', [], 'Which hydraulic oil viscosity grade does Acme recommend for presses run by the HX-200?', []),
  q('s23', 'unanswerable', [], 'What is the MTBF of the HX-200 controller?', []),
];

/**
 * Questions whose answer exists only as pixels (the rating-plate photo on page 5): their keywords
 * must be absent from every text layer, so only OCR or a vision model can answer them.
 */
export const IMAGE_ONLY_QUESTION_IDS: readonly string[] = ['s09', 's10'];

/** Page that carries the raster image (rating plate + service label), for tests. @internal */
export const RASTER_PAGE = 5;
