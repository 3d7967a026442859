// A CSV a spreadsheet opens as it is: UTF-8 with a byte-order mark (Excel reads UTF-8 only with it),
// every field quoted, quotes doubled, CRLF between rows. A cell that a spreadsheet would run as a
// formula (starting with =, +, -, @, or a tab or carriage return before one) gets a leading
// apostrophe, so a reply's text can never become a formula in the reader's sheet (CSV injection).

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: text as it is, unless a spreadsheet would read it as a formula. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '""';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

/** The whole file: header row, then each row's cells in `columns` order. */
export function toCsv<T>(
  columns: Array<{ title: string; value: (row: T) => string | number | null }>,
  rows: T[],
): string {
  const lines = [columns.map((c) => csvCell(c.title)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
