/**
 * Figure 3-1, the wiring diagram, drawn as vectors: boxes, coloured wires, labelled connectors and
 * pins. Its labels are real text, so a parser sees "J3", "SIG", "WH" as words, but only the
 * geometry says which wire goes where, which is what makes it a "visual" question.
 */
import { PDFPage, rgb, type Color } from 'pdf-lib';
import { CONTENT_WIDTH, INK, MARGIN, MUTED, WHITE, type Fonts } from './layout';

const DIAGRAM_HEIGHT = 400;

/** Wire colours as drawn; the page legend uses the same swatches. */
export const WIRE: Record<string, Color> = {
  BN: rgb(0.52, 0.3, 0.12),
  BU: rgb(0.1, 0.35, 0.85),
  WH: WHITE,
  BK: rgb(0.05, 0.05, 0.05),
  GY: rgb(0.55, 0.55, 0.58),
  RD: rgb(0.85, 0.1, 0.1),
  YE: rgb(0.95, 0.8, 0.05),
  GN: rgb(0.1, 0.6, 0.2),
  GNYE: rgb(0.1, 0.6, 0.2),
};

export const WIRE_LEGEND: Array<[code: string, name: string]> = [
  ['BN', 'brown'],
  ['BU', 'blue'],
  ['WH', 'white'],
  ['BK', 'black'],
  ['GY', 'grey'],
  ['RD', 'red'],
  ['YE', 'yellow'],
  ['GN', 'green'],
  ['GNYE', 'green/yellow'],
];

const PITCH = 14; // connector pin pitch in points
const CELL_W = 50;

/** Draws the diagram in a frame whose top edge is at page y = `top`. Returns the frame's bottom y. */
export function drawWiringDiagram(page: PDFPage, fonts: Fonts, top: number): number {
  const ox = MARGIN.left;
  const oy = top - DIAGRAM_HEIGHT;
  // Local coordinates: (0,0) is the frame's bottom-left corner, y up.
  const P = (x: number, y: number) => ({ x: ox + x, y: oy + y });
  const text = (x: number, y: number, s: string, size = 6.8, bold = false, color: Color = INK) =>
    page.drawText(s, { ...P(x, y), size, font: bold ? fonts.bold : fonts.regular, color });
  const centred = (cx: number, y: number, s: string, size = 6.8, bold = false, color: Color = INK) => {
    const w = (bold ? fonts.bold : fonts.regular).widthOfTextAtSize(s, size);
    text(cx - w / 2, y, s, size, bold, color);
  };
  const line = (x1: number, y1: number, x2: number, y2: number, thickness = 0.8, color: Color = INK, dashArray?: number[]) =>
    page.drawLine({ start: P(x1, y1), end: P(x2, y2), thickness, color, dashArray });
  const box = (x: number, y: number, w: number, h: number, opts: { fill?: Color; border?: Color; width?: number } = {}) =>
    page.drawRectangle({ ...P(x, y), width: w, height: h, color: opts.fill, borderColor: opts.border ?? INK, borderWidth: opts.width ?? 0.9 });

  /** A wire along an orthogonal polyline, in its real colour; white gets a dark casing to stay visible. */
  const wire = (code: keyof typeof WIRE, pts: Array<[number, number]>, label?: { at: [number, number]; text?: string }) => {
    for (let i = 1; i < pts.length; i++) {
      const [x1, y1] = pts[i - 1];
      const [x2, y2] = pts[i];
      if (code === 'WH') {
        line(x1, y1, x2, y2, 2.6, rgb(0.25, 0.25, 0.28));
        line(x1, y1, x2, y2, 1.4, WHITE);
      } else if (code === 'GNYE') {
        line(x1, y1, x2, y2, 2.2, WIRE.GN);
        line(x1, y1, x2, y2, 2.2, WIRE.YE, [3, 3]);
      } else {
        line(x1, y1, x2, y2, 1.6, WIRE[code]);
      }
    }
    for (const [x, y] of [pts[0], pts[pts.length - 1]]) page.drawCircle({ ...P(x, y), size: 1.6, color: INK });
    if (label) {
      const s = label.text ?? code;
      const w = fonts.regular.widthOfTextAtSize(s, 6.2);
      // Tag sits above the wire on a white patch so it never merges with a crossing line.
      page.drawRectangle({ ...P(label.at[0] - w / 2 - 1.5, label.at[1] + 2), width: w + 3, height: 7.5, color: WHITE });
      text(label.at[0] - w / 2, label.at[1] + 3.6, s, 6.2);
    }
  };

  /** A connector as a column of pin cells; returns the y of each pin's centre. */
  const connector = (x: number, topY: number, name: string, pins: string[], side: 'left' | 'right'): number[] => {
    const h = pins.length * PITCH;
    box(x, topY - h, CELL_W, h, { fill: rgb(0.95, 0.96, 0.98), width: 0.9 });
    // Name above the pin block, kept clear of the enclosure outline on the block's outer side.
    text(side === 'left' ? x + 2 : x, topY + 3.5, name, 7, true);
    return pins.map((sig, i) => {
      const yc = topY - PITCH / 2 - i * PITCH;
      if (i > 0) line(x, topY - i * PITCH, x + CELL_W, topY - i * PITCH, 0.4, MUTED);
      text(x + 4, yc - 2.4, `${i + 1}`, 6.8, true);
      text(x + 14, yc - 2.4, sig, 6.8);
      return yc;
    });
  };

  // Frame and title block, as on a real drawing sheet.
  box(0, 0, CONTENT_WIDTH, DIAGRAM_HEIGHT, { width: 1.1 });
  box(CONTENT_WIDTH - 170, 0, 170, 26, { width: 0.8 });
  line(CONTENT_WIDTH - 170, 13, CONTENT_WIDTH, 13, 0.5);
  line(CONTENT_WIDTH - 70, 0, CONTENT_WIDTH - 70, 26, 0.5);
  text(CONTENT_WIDTH - 166, 16.5, 'Acme Industrial Controls', 6.5, true);
  text(CONTENT_WIDTH - 166, 3.8, 'HX-200 wiring, connector side', 6.2);
  text(CONTENT_WIDTH - 66, 16.5, 'DWG HX200-W01', 6.2);
  text(CONTENT_WIDTH - 66, 3.8, 'Rev C  Sheet 1/1', 6.2);

  // --- Controller ---------------------------------------------------------------------------
  const cx0 = 170;
  const cx1 = 330;
  box(cx0, 40, cx1 - cx0, 345, { fill: rgb(0.985, 0.985, 0.99), width: 1.4 });
  centred((cx0 + cx1) / 2, 370, 'HX-200 CONTROLLER', 9, true);
  centred((cx0 + cx1) / 2, 360, 'connector side, cover removed', 6.2, false, MUTED);
  // Internal safety relay between the E-stop input and the valve drivers, for orientation.
  box(232, 110, 36, 40, { fill: WHITE, width: 0.7 });
  centred(250, 135, 'K1', 8, true);
  centred(250, 125, 'safety', 5.8);
  centred(250, 118, 'relay', 5.8);
  line(220, 116, 232, 130, 0.5, MUTED, [2, 2]);
  line(268, 130, 280, 300, 0.5, MUTED, [2, 2]);

  const x1 = connector(cx0, 337, 'X1 POWER', ['+24V', '0V', 'PE'], 'left');
  const j3 = connector(cx0, 237, 'J3 SENSOR', ['+24V', 'SIG', 'SH'], 'left');
  const j6 = connector(cx0, 137, 'J6 E-STOP', ['CH1 OUT', 'CH1 IN', 'CH2 OUT', 'CH2 IN'], 'left');
  const j5 = connector(cx1 - CELL_W, 337, 'J5 VALVES', ['Y1+', 'Y1-', 'Y2+', 'Y2-'], 'right');
  const j7 = connector(cx1 - CELL_W, 207, 'J7 RS-485', ['A', 'B', 'GND'], 'right');

  // --- G1 power supply and F2 line fuse -----------------------------------------------------
  box(18, 288, 78, 64, { fill: rgb(0.96, 0.96, 0.96) });
  text(24, 340, 'G1', 8, true);
  text(24, 330, 'POWER SUPPLY', 6.2);
  text(24, 321, '24 V DC, 5 A', 6.2);
  const g1 = [x1[0], x1[1], x1[2]];
  ['+', '-', 'PE'].forEach((t, i) => text(96 - 4 - fonts.regular.widthOfTextAtSize(t, 6.4), g1[i] - 2.3, t, 6.4));
  // F2 sits in the +24 V wire: drawn as the IEC fuse symbol (box with a through line).
  wire('BN', [
    [96, x1[0]],
    [116, x1[0]],
  ]);
  wire(
    'BN',
    [
      [140, x1[0]],
      [cx0, x1[0]],
    ],
    { at: [155, x1[0]] },
  );
  box(116, x1[0] - 4, 24, 8, { fill: WHITE, width: 0.9 });
  line(116, x1[0], 140, x1[0], 0.7);
  text(113, x1[0] + 7, 'F2  4 A', 6.4, true);
  wire(
    'BU',
    [
      [96, x1[1]],
      [cx0, x1[1]],
    ],
    { at: [133, x1[1]] },
  );
  wire(
    'GNYE',
    [
      [96, x1[2]],
      [cx0, x1[2]],
    ],
    { at: [133, x1[2]] },
  );

  // --- B1 pressure transducer on J3 ----------------------------------------------------------
  box(18, 190, 78, 58, { fill: rgb(0.96, 0.96, 0.96) });
  text(24, 236, 'B1', 8, true);
  text(24, 226, 'PRESSURE', 6.2);
  text(24, 218, 'TRANSDUCER', 6.2);
  text(24, 209, '0-400 bar', 6.2);
  text(24, 200, '4-20 mA, 2-wire', 6.2);
  ['1', '2', '3'].forEach((t, i) => text(89, j3[i] - 2.3, t, 6.4, true));
  wire(
    'BN',
    [
      [96, j3[0]],
      [cx0, j3[0]],
    ],
    { at: [133, j3[0]] },
  );
  wire(
    'WH',
    [
      [96, j3[1]],
      [cx0, j3[1]],
    ],
    { at: [133, j3[1]], text: 'WH  SIG' },
  );
  line(96, j3[2], cx0, j3[2], 0.9, MUTED, [2.5, 2]);
  text(118, j3[2] - 8.5, 'SH (shield)', 6.2, false, MUTED);

  // --- S0 emergency stop: two NC channels looped through J6 --------------------------------
  text(18, 160, 'S0', 8, true);
  text(18, 150, 'EMERGENCY STOP', 6.2);
  text(18, 142, '2 x NC, forced', 6.2);
  const ncContact = (y: number) => {
    // Left stub, right stub with stop, blade resting against the stop: IEC normally-closed contact.
    line(82, y, 110, y, 3, WHITE); // gap in the wire
    line(110, y, 110, y - 7, 0.9);
    line(82, y, 112, y - 5.5, 0.9);
  };
  wire(
    'RD',
    [
      [cx0, j6[0]],
      [50, j6[0]],
      [50, j6[1]],
      [cx0, j6[1]],
    ],
    { at: [140, j6[0]], text: 'RD' },
  );
  wire(
    'RD',
    [
      [cx0, j6[2]],
      [40, j6[2]],
      [40, j6[3]],
      [cx0, j6[3]],
    ],
    { at: [140, j6[2]], text: 'RD' },
  );
  ncContact(j6[0]);
  ncContact(j6[2]);
  text(113, j6[0] - 7.5, 'S0.1', 6, true);
  text(113, j6[2] - 7.5, 'S0.2', 6, true);
  // Mushroom head linked to both contacts.
  line(96, j6[0] - 2.7, 96, j6[2] - 2.7, 0.6, INK, [2, 1.5]);
  line(96, j6[0] + 1, 96, j6[0] + 8, 0.8);
  page.drawEllipse({ ...P(96, j6[0] + 11), xScale: 8, yScale: 3.5, color: WIRE.RD, borderColor: INK, borderWidth: 0.6 });

  // --- Y1 / Y2 proportional valve coils on J5 -----------------------------------------------
  const coil = (x: number, y: number, w: number, h: number, tag: string, fn: string) => {
    box(x, y, w, h, { fill: rgb(0.96, 0.96, 0.96) });
    text(x + 6, y + h - 11, tag, 8, true);
    text(x + 6, y + h - 20, fn, 6.2);
    text(x + 6, y + 5, '24 V DC, 2.0 A', 6.2);
    // Solenoid symbol: rectangle crossed by a diagonal.
    box(x + w - 20, y + h / 2 - 7, 13, 14, { width: 0.8 });
    line(x + w - 20, y + h / 2 - 7, x + w - 7, y + h / 2 + 7, 0.8);
  };
  coil(395, 343, 80, 38, 'Y1', 'ADVANCE');
  coil(395, 274, 80, 38, 'Y2', 'RETRACT');
  wire(
    'BK',
    [
      [cx1, j5[0]],
      [350, j5[0]],
      [350, 372],
      [395, 372],
    ],
    { at: [373, 372] },
  );
  wire(
    'GY',
    [
      [cx1, j5[1]],
      [362, j5[1]],
      [362, 352],
      [395, 352],
    ],
    { at: [378, 352] },
  );
  wire(
    'BK',
    [
      [cx1, j5[2]],
      [395, j5[2]],
    ],
    { at: [373, j5[2]] },
  );
  wire(
    'GY',
    [
      [cx1, j5[3]],
      [395, j5[3]],
    ],
    { at: [373, j5[3]] },
  );

  // --- PLC / HMI on the RS-485 bus ------------------------------------------------------------
  box(395, 150, 80, 62, { fill: rgb(0.96, 0.96, 0.96) });
  text(401, 200, 'PLC / HMI', 8, true);
  text(401, 190, 'Modbus RTU master', 6.2);
  text(401, 156, 'RS-485, 2-wire', 6.2);
  wire(
    'YE',
    [
      [cx1, j7[0]],
      [395, j7[0]],
    ],
    { at: [365, j7[0]], text: 'YE  A' },
  );
  wire(
    'GN',
    [
      [cx1, j7[1]],
      [395, j7[1]],
    ],
    { at: [365, j7[1]], text: 'GN  B' },
  );
  wire(
    'GY',
    [
      [cx1, j7[2]],
      [395, j7[2]],
    ],
    { at: [365, j7[2]], text: 'GY  GND' },
  );

  return oy;
}
