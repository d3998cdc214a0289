import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { declareConfig } from '../config/config';

/** The imports' configuration (IMPORT_*), declared beside the module that reads it. */
declare module '../config/config' {
  interface ModuleConfig {
    imports: {
      /** Where a job keeps its local copy of the file it reads (removed when its pass ends). */
      dir: string;
      /** An upload's size (IMPORT_MAX_BYTES). */
      maxBytes: number;
      /** Data rows of one file. */
      maxRows: number;
      /** Characters of one cell. */
      maxCellChars: number;
      /** What an XLSX file may unpack to, all parts together (the worksheet streams; this is the zip bomb's bound). */
      maxUnzippedBytes: number;
      /** Shared strings an XLSX file may hold (IMPORT_MAX_SHARED_STRINGS): they stay in memory while its rows are read. */
      maxSharedStrings: number;
      /** Their characters together (IMPORT_MAX_SHARED_STRING_CHARS). */
      maxSharedStringChars: number;
      /** An import left in a job's state longer than this without progress (its worker died) is run again. */
      stalledSec: number;
    };
  }
}

declareConfig('imports', ({ get, int, size, duration }) => ({
  dir: get('IMPORT_DIR') ?? join(tmpdir(), 'hr-imports'),
  maxBytes: size('IMPORT_MAX_BYTES', '50mb'),
  maxRows: int('IMPORT_MAX_ROWS', 500_000, 1, 10_000_000),
  maxCellChars: int('IMPORT_MAX_CELL_CHARS', 32_767, 100, 1_000_000),
  maxUnzippedBytes: size('IMPORT_MAX_UNZIPPED_BYTES', '512mb'),
  maxSharedStrings: int('IMPORT_MAX_SHARED_STRINGS', 1_000_000, 1000, 50_000_000),
  maxSharedStringChars: int('IMPORT_MAX_SHARED_STRING_CHARS', 32_000_000, 100_000, 1_000_000_000),
  stalledSec: duration('IMPORT_STALLED_AFTER', '2m'),
}));
