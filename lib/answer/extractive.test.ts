import { describe, expect, it } from 'vitest';
import type { ChunkObject, RefHit } from '@/lib/agent/contract';
import { Environment } from '@/lib/agent/environment';
import { checkValues } from '@/lib/answer/values';
import { extractiveAnswer as writeExtractive, extractiveSummary, type ExtractiveOptions } from './extractive';
import { cite } from './quote';
import { chunk, page, resultOf } from '@/lib/agent/testing/turn';
// These tests exercise the writer, not the operating point: quote when a span is found and states
// the asked kind of quantity, whatever its coverage.
const extractiveAnswer = (question: string, hits: RefHit[], opts: ExtractiveOptions = {}) =>
  writeExtractive(question, hits, { formPolicy: { minCoverage: 0, requireAskedQuantity: true }, ...opts });

function hits(...texts: Array<[string, string?]>): RefHit[] {
  const env = new Environment();
  return env.add('fast_vector_search', resultOf(texts.map(([text, heading]) => chunk(text, { heading: heading ?? '' }))), 0);
}

/** What one hybrid_search returned: chunks of any manuals, as the writer receives them. */
function searched(...objects: ChunkObject[]): RefHit[] {
  return new Environment().add('hybrid_search', resultOf(objects), 0);
}

/** Passages of one manual, each on its own page (page n = position). */
function pages(title: string, ...texts: Array<[string, string?]>): RefHit[] {
  const env = new Environment();
  return env.add('hybrid_search', resultOf(texts.map(([text, heading], i) => chunk(text, { heading: heading ?? '', page: i + 1, manualTitle: title }))), 0);
}

const BATTERY = hits(
  ['The NanoVNA-H has a built-in 400 mAh lithium battery. Charging current is at most 0.8 A.', 'Specifications > Power'],
  ['Press and hold the power button for two seconds to switch the unit on.', 'Operation'],
  ['Calibrate with the SOL standards before every measurement session.', 'Calibration'],
);

describe('extractive answer', () => {
  it('declines a variant the manuals do not list, and a device whose manual is processing, whatever the passages say', () => {
    const variant = extractiveAnswer('How big is the battery of the Zentro QX-40C?', BATTERY, { uncoveredVariants: [{ asked: 'QX-40C', listed: ['QX-40A'] }] });
    expect(variant).toMatchObject({ declined: true, refs: [], text: 'The manuals do not cover the QX-40C: they list the QX-40A but not the QX-40C.' });
    const pending = extractiveAnswer('How big is the battery of the KL-9?', BATTERY, { notReady: [{ device: 'KL-9', percent: 12 }] });
    expect(pending).toMatchObject({ declined: true, refs: [], text: 'The KL-9 manual is still processing (12 %); ask again when it is ready.' });
  });

  it('answers with the best sentences, each cited with its [n]', () => {
    const a = extractiveAnswer('How big is the built-in battery and what is the charging current?', BATTERY);
    expect(a.declined).toBe(false);
    expect(a.text).toContain('400 mAh lithium battery [1].');
    expect(a.text).toContain('Charging current is at most 0.8 A [1].');
    expect(a.text).not.toContain('SOL standards');
    expect(a.refs).toEqual([1]);
  });

  it('answers from the row whose label is the asked phrase, not a better-ranked row that mentions it', () => {
    const a = extractiveAnswer(
      'What supply voltage does the PX-9 need?',
      pages(
        'PX-9 Manual',
        [
          'Code | Meaning | Action\nE01 | Supply voltage low (below 20.4 V) | Check the supply.\nE02 | Supply voltage high (above 28.8 V) | Check the supply.',
          'Error codes',
        ],
        ['Parameter | Value\nSupply voltage | 24 V DC ±10 %\nCurrent consumption | 0.4 A idle', 'Technical data'],
      ),
    );
    expect(a.text).toMatch(/^Parameter: Supply voltage; Value: 24 V DC ±10 % \[2\]/);
  });

  it('puts the citation before one closing mark', () => {
    expect(cite('The battery is 400 mAh.', 3)).toBe('The battery is 400 mAh [3].');
    expect(cite('Values run from 0x00 ..', 1)).toBe('Values run from 0x00 [1].');
    expect(cite('Do it as follows:', 2)).toBe('Do it as follows [2]:');
    expect(cite('Is it on?', 2)).toBe('Is it on [2]?');
    expect(cite('Set the mode;', 2)).toBe('Set the mode [2].');
  });
  it('cites the passage each sentence came from', () => {
    const a = extractiveAnswer('How do I switch the unit on with the power button?', BATTERY);
    expect(a.text).toMatch(/^Press and hold the power button for two seconds to switch the unit on \[2\]\./);
  });

  it('shows the closest pages for an unanswerable question instead of guessing', () => {
    const a = extractiveAnswer('What is the warranty period?', BATTERY);
    expect(a.declined).toBe(true);
    expect(a.mode).toBe('pages');
    expect(a.text).toBe('I could not find a stated value for the warranty period; these pages are the closest match.');
    expect(a.refs).toEqual([]);
  });

  it('declines with nothing retrieved (no pages to show: not covered)', () => {
    const a = extractiveAnswer('What is the warranty period?', []);
    expect(a.text).toBe('The manuals do not say: I found no passage giving the warranty period in the manuals searched.');
    expect(a.mode).toBe('not_covered');
  });

  it('keeps the list that a sentence introduces', () => {
    const list = hits(['To reset the unit:\n1. Switch it off.\n2. Hold MENU.\n3. Switch it on.', 'Reset']);
    const a = extractiveAnswer('How do I reset the unit?', list);
    expect(a.text).toBe('To reset the unit [1]: 1. Switch it off [1]. 2. Hold MENU [1]. 3. Switch it on [1].');
  });

  it('summarizes extractively within the word limit, cited', () => {
    const s = extractiveSummary('battery charging current', BATTERY, 12);
    expect(s.split(/\s+/).length).toBeLessThanOrEqual(14);
    expect(s).toMatch(/\[1\]/);
  });

  it('quotes a table row whole, with its header, instead of a fragment', () => {
    const table = pages(
      'HX-200 Manual',
      [
        'Table 5-1 Error codes\nCode | Meaning | Action\nE04 | Pressure signal above 21 mA | Check the cable.\nE05 | Overpressure: above 360 bar for more | Check the relief valve.\nthan 200 ms (latching) | Check the calibration.',
        'Error codes',
      ],
      ['The controller shows the error code on the display.', 'Error codes'],
    );
    const a = extractiveAnswer('The display shows E05. What does it mean, and at what pressure does it trip?', table);
    expect(a.declined).toBe(false);
    expect(a.text).toContain(
      'Code: E05; Meaning: Overpressure: above 360 bar for more than 200 ms (latching); Action: Check the relief valve. Check the calibration [1].',
    );
  });

  it('never answers with a bare heading or a label line', () => {
    const board = pages(
      'SKR Mini E3 manual',
      ['SKR MINI E3 V2.0\nOperation Manual of the Motherboard', ''],
      ['1) Use MP1584EN power chip, support 12-24V power input, the maximum output current can reach 2.5A;', 'Introduction > Features'],
    );
    const a = extractiveAnswer('Which power chip supplies the SKR Mini E3 V2.0, and how much output current can it deliver?', board);
    expect(a.text).toBe('1) Use MP1584EN power chip, support 12-24V power input, the maximum output current can reach 2.5A [2].');
  });

  it('answers "how do I" with the steps, and a topic sentence with the values after it', () => {
    const manual = pages(
      'LibreVNA manual',
      [
        'The two thru option is an advanced de-embedding option for fixtures that cannot be calibrated out.\nTo create a two thru de-embedding, perform the following steps:\n1. Connect both fixtures directly to each other.\n2. Take the mandatory 2xThru measurement.\n3. Click the "Calculate" button.',
        'De-embedding > Two Thru',
      ],
      ['TF card slot: for offline engraving file storage. Suggest SD card: 4~16G memory, FAT32 format. File format support: .NC; .GC', 'TF card'],
    );
    const steps = extractiveAnswer('How do I set up two thru de-embedding?', manual);
    expect(steps.text).toContain('To create a two thru de-embedding, perform the following steps [1]:');
    expect(steps.text).toContain('3. Click the "Calculate" button [1].');
    const card = extractiveAnswer('Which TF card do I need for offline engraving, and which file types work?', manual);
    expect(card.text).toContain('FAT32');
    expect(card.text).toContain('.NC');
  });

  it('declines when the asked quantity is stated nowhere, though the device and other words are', () => {
    const scope = pages(
      'OpenHantek6022 User Manual',
      ['The Hantek 6022BE input impedance is 1 MΩ || 25 pF. Each analog input channel has a selectable gain.', 'Scope Inputs'],
      ['The Hantek 6022BE samples at up to 30 MS/s on one channel.', 'Sample rate'],
    );
    const bandwidth = extractiveAnswer('What is the analog -3 dB bandwidth of the Hantek 6022BE input channels?', scope);
    expect(bandwidth.declined).toBe(true);
    expect(bandwidth.mode).toBe('pages');
    expect(bandwidth.text).toMatch(/^I could not find a stated value for the .*bandwidth; these pages are the closest match\.$/);
    const impedance = extractiveAnswer('What input impedance does a Hantek 6022BE channel present?', scope);
    expect(impedance.declined).toBe(false);
    expect(impedance.text).toContain('1 MΩ || 25 pF');
  });

  it('prefers the vision model reading of the page the question is about', () => {
    const env = new Environment();
    const found = env.add(
      'hybrid_search',
      resultOf([chunk('Figure 4 shows the wiring of the terminal block: terminal L1 brown, terminal N blue.', { page: 4 })]),
      0,
    );
    const read = env.add(
      'visual_interpretation',
      resultOf([page('m1', 4, { text: 'Terminal N takes the blue wire.', textSource: 'vlm' })], 'interpretation'),
      1,
    );
    const a = extractiveAnswer('Which wire goes to terminal N in the wiring diagram?', [...found, ...read]);
    expect(a.parts[0]).toBe('Terminal N takes the blue wire [2].');
  });
  it("answers from the named device's manual when it has a passage, though another device's matches more words", () => {
    const found = searched(
      chunk('Output current | Peak 6.0 A (current changes with load)', { manualId: 'drive', manualTitle: 'CL57R Stepper Drive Manual', page: 3 }),
      chunk('An MP1584EN regulator on the board is the 5 V supply, rated 2.5 A.', { manualId: 'skr', manualTitle: 'SKR Mini E3 V2 Manual', page: 2 }),
    );
    const a = extractiveAnswer('Which buck converter supplies the SKR Mini E3, and how much output current can it deliver?', found);
    expect(a.text).toMatch(/^An MP1584EN regulator on the board is the 5 V supply, rated 2\.5 A \[2\]\./);
    expect(a.text).not.toContain('Note:');
    expect(a.text).not.toContain('6.0 A');
  });
  it("does not take a common word in a manual's title for the device's name", () => {
    // "board" is in the BMS manual's title, but the best page (another manual's) uses it too:
    // a question about a power supply board names no device.
    const found = searched(
      chunk('Power Supply Board | 118-5022-00\nL.V. Transformer | 118-4937-00', { manualId: 'notes', manualTitle: 'Service notes 1987', page: 3 }),
      chunk('The protection board switches the charging MOS off when the power supply voltage is too high.', {
        manualId: 'bms',
        manualTitle: 'Lithium battery smart protection board manual',
        page: 9,
      }),
    );
    const a = extractiveAnswer('What part number is the power supply board I need to order?', found);
    expect(a.declined).toBe(false);
    expect(a.text).toContain('118-5022-00');
    expect(a.text).not.toContain('charging MOS');
  });
  it('quotes no figure label after an intro, and an intro without its list ends as a sentence', () => {
    const found = pages('SKR Mini E3 V2.0 Manual', ['Use the DCDC 5V module to power the SKR Mini E3 V2.0 as shown below:\nSKR MINI\nV2.0 pads', 'Power']);
    const a = extractiveAnswer('Which module powers the SKR Mini E3 V2.0 from 5V?', found);
    expect(a.text).toBe('Use the DCDC 5V module to power the SKR Mini E3 V2.0 as shown below [1].');
  });
  it('quotes a part number after its intro, though it is not a sentence', () => {
    const found = pages('FMUM Standard', ['The IMU flex connector J1 uses the following connector part:\nBM20B(0.8)-34DP-0.4V(53)\nTop view', 'Connectors']);
    const a = extractiveAnswer('Which connector part does the IMU flex connector J1 use?', found);
    expect(a.text).toBe('The IMU flex connector J1 uses the following connector part [1]: BM20B(0.8)-34DP-0.4V(53) [1].');
  });
  it("declines a question about a maker's model no manual mentions, unless it also names a device the manuals cover", () => {
    const found = pages('OpenGD77 User Guide', ['Hold the two buttons (S1, Fn) and turn the radio on to enter firmware update mode.', 'Firmware']);
    const a = extractiveAnswer('How do I enter firmware update mode on a Yaesu FT-65?', found, { unknownDevices: ['Yaesu FT-65'] });
    expect(a.declined).toBe(true);
    expect(a.text).toBe('The manuals do not cover the Yaesu FT-65: no manual in the library mentions it.');
    const covered = extractiveAnswer('How do I enter firmware update mode in OpenGD77 User Guide terms after a Yaesu FT-65?', found, {
      unknownDevices: ['Yaesu FT-65'],
    });
    expect(covered.declined).toBe(false);
    expect(covered.text).toContain('S1, Fn');
  });
  it('declines when the line that states the asked quantity does not fit in the answer', () => {
    // One list item of ten sentences, every one about the receiver sensitivity test: it fills the
    // answer, and the only line with a voltage (on the second page) no longer fits.
    const test = Array.from(
      { length: 10 },
      (_, i) => `In step ${i + 1} the receiver sensitivity test sets the signal generator and notes the display reading.`,
    );
    const found = pages(
      'RX-1 Manual',
      [`1. ${test.join(' ')}`, 'Receiver test'],
      ['Apply 12V power to the receiver while holding the two buttons.', 'Installation'],
    );
    const a = extractiveAnswer('What is the receiver sensitivity, in microvolts, of the RX-1?', found);
    expect(a.evidence.quantityMissing).toBe(true);
    expect(a.declined).toBe(true);
  });
  it("shows the pages, quoting nothing, when only another device's manual has the value", () => {
    const found = searched(
      chunk('The maximum input power at the RF ports is +10 dBm; more can damage the receiver.', {
        manualId: 'libre',
        manualTitle: 'LibreVNA User Manual',
        page: 4,
      }),
      chunk('The NanoVNA-H menu is opened with the jog switch.', { manualId: 'nano', manualTitle: 'NanoVNA-H User Guide', page: 2 }),
    );
    const topicTerms = new Map([
      ['nano', new Set(['nanovna-h'])],
      ['libre', new Set<string>()],
    ]);
    const a = extractiveAnswer('What is the maximum input power of the NanoVNA-H RF port?', found, { topicTerms });
    expect(a.declined).toBe(true);
    expect(a.mode).toBe('pages');
    expect(a.text).toBe('I could not find a stated value for the maximum input power; these pages are the closest match.');
    expect(a.text).not.toContain('+10 dBm');
  });
  it("answers from a copy of the named device's manual filed under another title (its passages name the device)", () => {
    const found = searched(
      chunk('Code: E05; Meaning: HX-200 overpressure: pump pressure above limit, check the relief valve', {
        manualId: 'copy',
        manualTitle: 'Press controller desktop',
        page: 6,
      }),
      chunk('The HX-200 controller is mounted on a DIN rail.', { manualId: 'acme', manualTitle: 'Acme HX-200 Controller Manual', page: 2 }),
    );
    const topicTerms = new Map([
      ['acme', new Set(['hx-200'])],
      ['copy', new Set<string>()],
    ]);
    const a = extractiveAnswer('What does error E05 mean on the HX-200?', found, { topicTerms });
    expect(a.declined).toBe(false);
    expect(a.text).toContain('overpressure');
  });
  it('answers a "how can I" question from the named device\'s manual even when only another manual has numbered steps', () => {
    const found = searched(
      chunk('#n P2203 | Get the firmware version | $n ok V4.0.0', { manualId: 'arm', manualTitle: 'Swift Pro Protocol', page: 12 }),
      chunk('1. Open the library manager and check the firmware version of the installed package.', {
        manualId: 'sbc',
        manualTitle: 'AgonLight2 Manual',
        page: 33,
      }),
    );
    const a = extractiveAnswer('How can I ask the Swift Pro which firmware version it is running?', found);
    expect(a.parts[0]).toContain('P2203');
    expect(a.text).not.toContain('library manager');
  });

  it('quotes a value of the asked kind from the best page, though its sentence words it differently', () => {
    const found = pages(
      'Board X1 Manual',
      ['X1 power supply\nThe power consumption of the X1 is about 130 mA without a keyboard and 180 mA with one.', 'Power supply'],
      ['The current X1 design files are available for download on GitHub, with the schematic.', 'Schematic'],
    );
    const a = extractiveAnswer('How much current does the X1 draw?', found);
    expect(a.declined).toBe(false);
    expect(a.text).toContain('130 mA');
  });

  it('quotes a list item that runs on for a paragraph by its sentences that answer, marking the gap', () => {
    const item =
      '• Pin 2 is the 5 V rail of the USB connector and can also power the board. ' +
      'The header carries the I2C bus of the real-time clock and the SPI bus of the SD card socket, with pull-ups fitted. ' +
      'Route the wires away from the motors to avoid noise. ' +
      'A 1400 mAh battery will keep the board running for about 8 hours on its own.';
    const a = extractiveAnswer('How long will a 1400 mAh battery keep the board running?', hits([`Power options:\n${item}`, 'Power']));
    expect(a.text).toContain('about 8 hours on its own');
    expect(a.text).not.toContain('avoid noise');
    expect(a.text).not.toContain('SD card');
    expect(a.text).toMatch(/\[1\]\. … A 1400 mAh battery/);
    // Each kept run is cited on its own: the value lock finds every value in the passage it cites.
    expect(checkValues(a.text, new Map([[1, `Power options:\n${item}`]])).unverified).toEqual([]);
  });

  it("never quotes a row or a labelled line named by another designation than the asked one, but reads the asked one's row whatever its cells name", () => {
    const codes = hits(['Code | Meaning\nE21 | Sensor open circuit\nE22 | Heater relay stuck\nE23 | Fan stalled', 'Error codes']);
    const other = extractiveAnswer('What does error E53 mean?', codes);
    expect(other.text).not.toMatch(/E2\d|circuit|stuck|stalled/);
    expect(extractiveAnswer('What does error E22 mean?', codes).text).toMatch(/Heater relay stuck/);
    const channels = hits(['CH1 max current: 3 A\nCH2 max current: 5 A', 'Outputs']);
    expect(extractiveAnswer('What is the max current of CH2?', channels).text).toMatch(/5 A/);
    expect(extractiveAnswer('What is the max current of CH2?', channels).text).not.toMatch(/3 A/);
    // A label of another series may be the answer itself.
    const wiring = hits(['Connector J3 (sensor): transducer B1, signal wire white.\nConnector J4 (fan): fan M1, supply wire red.', 'Wiring']);
    expect(extractiveAnswer('Which connector does transducer B1 plug into?', wiring).text).toMatch(/J3/);
    // Designations in a row's cells (a key combination) do not make it another thing's row.
    const keys = hits(['Function | Model A | Model B\nSafe boot | SK1 + 0 | P3 + 0\nReset | SK2 | P4', 'Power-on keys']);
    expect(extractiveAnswer('Which keys give a safe boot?', keys).text).toMatch(/SK1 \+ 0/);
  });

  it("quotes only the turn's device when the question names none", () => {
    // The same error table in the device's manual's copy filed under another title ('m2'), found first.
    const table = 'Code | Meaning\nE05 | Overpressure above 360 bar\nE06 | Pump motor overload';
    const found = searched(
      chunk(table, { manualId: 'm2', manualTitle: 'Press controller (renamed copy)', page: 6, heading: 'Error codes' }),
      chunk('The controller switches the pump off when a fault latches.', { manualId: 'm1', manualTitle: 'Acme HX-200 manual', page: 2 }),
    );
    expect(extractiveAnswer('What does error E05 mean?', found).text).toMatch(/Overpressure/);
    expect(extractiveAnswer('What does error E05 mean?', found, { device: ['m1'] }).text).not.toMatch(/Overpressure/);
  });
});
