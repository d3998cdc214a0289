import { Module } from '@nestjs/common';
import { PdfRenderer } from './pdf-renderer';

/** HTML to PDF by the system's Chromium (PdfRenderer): one browser per process that renders. */
@Module({ providers: [PdfRenderer], exports: [PdfRenderer] })
export class PdfModule {}
