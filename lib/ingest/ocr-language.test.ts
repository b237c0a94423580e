/**
 * Languages: a scanned page is identified from its first OCR pass and read again with
 * the matching model only when it is another language. The end-to-end cases render Czech and
 * English paragraphs to pixels, put them in a PDF as scanned pages (no text layer) and read them
 * with the native tesseract and its Czech model (Debian tesseract-ocr-ces; .ci/run installs it).
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerFont } from '../sample/raster';
import type { OcrEngine } from './ocr';
import { describeOcrEngine } from './ocr-engine';
import { ManualLanguage, detectLanguage, ocrLanguageCandidates, readInItsLanguage } from './ocr-language';
import { createNativeTesseractEngine, findTesseract, nativeTesseractInfo } from './ocr-native';
import { ocrPage } from './testing/pages';
import { openPdf } from './pdf';

const CZECH = [
  'Stykový modul pro číslicový multimetr',
  'Modul se připojuje k zadnímu panelu přístroje pomocí konektoru.',
  'Přenosová rychlost se nastavuje přepínači na desce modulu.',
  'Po zapnutí napájení přístroj vyšle zprávu o svém stavu.',
  'Příkazy se zadávají velkými písmeny a každý příkaz končí',
  'znakem návratu vozíku. Chybová hlášení jsou uvedena v tabulce.',
];
const RUSSIAN = [
  'Модуль интерфейса для цифрового мультиметра',
  'Модуль подключается к задней панели прибора.',
  'Скорость передачи задаётся переключателями на плате.',
  'После включения питания прибор сообщает своё состояние.',
  'Команды вводятся заглавными буквами, каждая команда',
  'заканчивается возвратом каретки. Ошибки приведены в таблице.',
];
const ENGLISH = [
  'Interface module for the digital multimeter',
  'The module connects to the rear panel of the instrument.',
  'The transmission rate is set with the switches on the board.',
  'After power is switched on, the instrument reports its state.',
  'Commands are entered in capital letters and every command ends',
  'with a carriage return. Error messages are listed in the table.',
];

describe('detectLanguage', () => {
  it('tells Czech from English even in text read with the English model (no diacritics)', () => {
    const czechReadAsEnglish = 'Modul se pripojuje k zadnimu panelu pristroje pomoci konektoru. Prenosova rychlost se nastavuje prepinaci na desce modulu.';
    expect(detectLanguage(czechReadAsEnglish, ['eng', 'ces'])).toBe('ces');
    expect(detectLanguage(ENGLISH.join(' '), ['eng', 'ces'])).toBe('eng');
    expect(detectLanguage(CZECH.join(' '), ['eng', 'ces'])).toBe('ces');
  });

  it('keeps the guess when the text is too short, and maps tesseract codes to the identifier’s', () => {
    expect(detectLanguage('PA5 GND 24V', ['eng', 'ces'])).toBeNull();
    expect(detectLanguage(CZECH.join(' '), ['eng'])).toBe('eng');
    expect(
      detectLanguage('电源接口连接到主板的电机驱动器输入端子上，请在接线前断开电源并检查电压是否正确，以免损坏设备。再次确认所有连接牢固可靠后方可通电运行。', [
        'eng',
        'chi_sim',
      ]),
    ).toBe('chi_sim');
  });

  it('offers English plus the configured languages the engine has a model for', () => {
    expect(ocrLanguageCandidates([], ['eng', 'ces'])).toEqual(['eng']);
    expect(ocrLanguageCandidates(['eng', 'ces', 'deu'], ['eng', 'ces', 'osd'])).toEqual(['eng', 'ces']);
  });
});

describe('readInItsLanguage', () => {
  const result = (text: string) => ({ text, words: [], lines: [], confidence: 90, ms: 0 });
  it('waits for pages still being read before deciding an unidentified page, and never for itself', async () => {
    const lang = new ManualLanguage(['eng', 'ces']);
    const askedForUsual = vi.spyOn(lang, 'usualOnceKnown');
    const reads: string[] = [];
    let finishCzech!: () => void;
    const czechRead = new Promise<void>((resolve) => (finishCzech = resolve));
    const czech = readInItsLanguage(
      async (l) => {
        await czechRead;
        return result(
          l === 'eng'
            ? 'Modul se pripojuje k zadnimu panelu pristroje pomoci konektoru na desce modulu.'
            : 'Modul se připojuje k zadnímu panelu přístroje pomocí konektoru na desce modulu.',
        );
      },
      undefined,
      lang,
    );
    const short = readInItsLanguage(
      async (l) => {
        reads.push(l);
        return result('Obr. 1. Obr. 2.');
      },
      undefined,
      lang,
    );
    let shortDone = false;
    void short.then(() => (shortDone = true));
    // The short page was read, could not be identified and asked for the manual's language: it
    // must wait there for the Czech page (polled in later ticks, so a page that did not wait would be done).
    await vi.waitFor(() => expect(askedForUsual).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    expect(reads).toEqual(['eng']);
    expect(shortDone).toBe(false);
    finishCzech();
    expect((await czech).language).toBe('ces');
    expect((await short).language).toBe('ces');
    expect(reads).toEqual(['eng', 'ces']);
    // Two undecided pages alone do not wait for each other.
    const alone = new ManualLanguage(['eng', 'ces']);
    const both = await Promise.all([0, 1].map(() => readInItsLanguage(async () => result('Obr. 1.'), undefined, alone)));
    expect(both.map((b) => b.language)).toEqual(['eng', 'eng']);
  });

  it('reads a page that is too short to identify in the language the manual’s pages settled in', async () => {
    const language = new ManualLanguage(['eng', 'ces']);
    language.settled('ces');
    language.settled('ces');
    const reads: string[] = [];
    // The page started before those pages settled, so its first guess was still English.
    const out = await readInItsLanguage(
      async (l) => {
        reads.push(l);
        return result('Obr. 1. Obr. 2.');
      },
      undefined,
      Object.assign(language, { firstGuess: () => 'eng' }),
    );
    expect(reads).toEqual(['eng', 'ces']);
    expect(out.language).toBe('ces');
    expect(language.usual()).toBe('ces');
  });
});

/** A PDF whose pages are images of the given paragraphs (a scan: no text layer). */
async function scannedPdf(pages: string[][]): Promise<Uint8Array> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const family = await registerFont();
  const pdf = await PDFDocument.create();
  for (const lines of pages) {
    // US letter at 200 dpi.
    const canvas = createCanvas(1700, 2200);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 1700, 2200);
    g.fillStyle = '#111';
    g.font = `40px ${family}`;
    lines.forEach((line, i) => g.fillText(line, 150, 250 + i * 70));
    const page = pdf.addPage([612, 792]);
    page.drawImage(await pdf.embedPng(canvas.toBuffer('image/png')), { x: 0, y: 0, width: 612, height: 792 });
  }
  return pdf.save();
}

const binary = findTesseract();
const haveCzech = !!binary && (nativeTesseractInfo(binary)?.languages.includes('ces') ?? false);

describe.skipIf(!haveCzech)('scanned pages read with the model of their language (native tesseract + ces)', () => {
  let engine: OcrEngine;
  /** The languages each recognition was asked for, in order. */
  const calls: string[] = [];
  beforeAll(() => {
    const real = createNativeTesseractEngine({ binary: binary!, workers: 1 });
    engine = {
      ...real,
      id: real.id,
      engine: real.engine,
      languages: real.languages,
      concurrency: real.concurrency,
      recognize: (image, opts) => {
        calls.push((opts?.languages ?? ['(default)']).join('+'));
        return real.recognize(image, opts);
      },
      detectScript: real.detectScript
        ? (image, opts) => {
            calls.push('osd');
            return real.detectScript!(image, opts);
          }
        : undefined,
      terminate: () => real.terminate(),
    };
  });
  afterAll(() => engine?.terminate());

  async function readPages(texts: string[][], language: ManualLanguage) {
    const doc = await openPdf(await scannedPdf(texts));
    try {
      const out = [];
      for (let n = 1; n <= texts.length; n++) {
        const page = await doc.extractPage(n);
        expect(page.hasTextLayer).toBe(false);
        calls.length = 0;
        const r = await ocrPage(doc, page, engine, { language });
        out.push({ language: r.regions[0].language, text: r.regions[0].lines.map((l) => l.text).join('\n'), calls: [...calls] });
      }
      return out;
    } finally {
      await doc.close();
    }
  }

  it('re-reads a Czech page in Czech, keeps Czech for the next page, and switches back for English', async () => {
    const language = new ManualLanguage(['eng', 'ces']);
    const [czech, czech2, english, english2] = await readPages([CZECH, CZECH, ENGLISH, ENGLISH], language);
    // First scanned page: English pass, identified as Czech, read again in Czech.
    expect(czech.calls).toEqual(['eng', 'ces']);
    expect(czech.language).toBe('ces');
    expect(czech.text).toMatch(/přepínači|připojuje|přístroje/);
    // The manual is Czech now: one pass.
    expect(czech2.calls).toEqual(['ces']);
    // An English page after Czech ones: read in Czech first, identified, read again in English.
    expect(english.calls).toEqual(['ces', 'eng']);
    expect(english.language).toBe('eng');
    expect(english.text).toContain('carriage return');
    expect(english2.calls).toEqual(['eng']);
    expect(Object.fromEntries(language.pages)).toEqual({ ces: 2, eng: 2 });
  }, 120_000);

  it.skipIf(!binary || !nativeTesseractInfo(binary)?.languages.includes('rus'))(
    'finds a page in another script by OSD when its English read is unsure, and reads it with that script’s model',
    async () => {
      const language = new ManualLanguage(['eng', 'ces', 'rus']);
      const [russian, english] = await readPages([RUSSIAN, ENGLISH], language);
      expect(russian.calls).toEqual(['eng', 'osd', 'rus']);
      expect(russian.language).toBe('rus');
      expect(russian.text).toMatch(/Модуль|прибора|переключателями/);
      // Russian is the guess now; the English page read in Russian is unsure, OSD says Latin, and
      // English wins among the Latin-script languages.
      expect(english.calls[0]).toBe('rus');
      expect(english.language).toBe('eng');
      expect(english.text).toContain('carriage return');
    },
    120_000,
  );

  it('a confident English page costs no OSD even with another script configured', async () => {
    const language = new ManualLanguage(['eng', 'rus']);
    const [english] = await readPages([ENGLISH], language);
    expect(english.calls).toEqual(['eng']);
  }, 60_000);

  it('health and the Manuals page name the languages in use and the ones without a model', () => {
    const d = describeOcrEngine({ engine: 'tesseract', languages: ['eng', 'ces', 'deu'] });
    if (nativeTesseractInfo(binary!)!.languages.includes('deu')) return; // deu installed: nothing missing to show
    expect(d).toMatchObject({ languages: ['eng', 'ces'], missing: ['deu'] });
    expect(d.detail).toMatch(/languages eng, ces \(each scanned page read with the language it is identified as\); no model for deu/);
  });

  it('reads every page once with the default model when no other language is configured', async () => {
    const language = new ManualLanguage(ocrLanguageCandidates([], engine.languages));
    expect(language.active).toBe(false);
    const [czech] = await readPages([CZECH], language);
    expect(czech.calls).toEqual(['(default)']);
    expect(czech.language).toBeUndefined();
  }, 60_000);
});
