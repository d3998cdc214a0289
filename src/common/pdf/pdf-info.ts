/** What a PDF says of itself (its document information dictionary). */
export interface PdfInfo {
  title: string;
  creator: string;
  producer?: string;
}

/** A PDF text string: UTF-16BE with its byte order mark, in hex (any character, nothing to escape). */
function pdfText(text: string): string {
  const bytes = Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
  return `<${bytes.toString('hex').toUpperCase()}>`;
}

/**
 * The PDF with a new information dictionary (title, creator) by an incremental update (ISO 32000-1
 * §7.5.6): a new object, a cross-reference section for it and a trailer naming it, appended.
 * Chromium writes "about:blank" and "HeadlessChrome" there (issue 41). A PDF whose last section is
 * not a classic trailer (a cross-reference stream) is returned as it is.
 */
export function withPdfInfo(pdf: Buffer, info: PdfInfo): Buffer {
  const tail = pdf.subarray(Math.max(0, pdf.length - 4096)).toString('latin1');
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  const trailerAt = tail.lastIndexOf('trailer');
  if (!startxref || trailerAt === -1) return pdf;
  const trailer = tail.slice(trailerAt, tail.lastIndexOf('startxref'));
  const size = /\/Size\s+(\d+)/.exec(trailer);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(trailer);
  if (!size || !root) return pdf;
  const id = Number(size[1]);
  const head = pdf[pdf.length - 1] === 0x0a ? '' : '\n';
  const object =
    `${id} 0 obj\n<< /Title ${pdfText(info.title)} /Creator ${pdfText(info.creator)}` +
    `${info.producer ? ` /Producer ${pdfText(info.producer)}` : ''} >>\nendobj\n`;
  const objectAt = pdf.length + head.length;
  const xrefAt = objectAt + Buffer.byteLength(object, 'latin1');
  const update =
    head +
    object +
    `xref\n${id} 1\n${String(objectAt).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${id + 1} /Root ${root[1]} /Info ${id} 0 R /Prev ${startxref[1]} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([pdf, Buffer.from(update, 'latin1')]);
}
