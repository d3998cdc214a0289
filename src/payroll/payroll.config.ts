import { declareConfig } from '../config/config';

/** Payroll's configuration (DIFF_*, PAYROLL_RUN_TIMEOUT, PAYROLL_CHUNK_SIZE, PAYSLIP_CHUNK_SIZE), declared beside the module that reads it. */
declare module '../config/config' {
  interface ModuleConfig {
    /** Payroll diffs (GET /payroll_config/payrolls/{id}/diff): computed in the API process. */
    diff: {
      /** Diffs of different pairs computed at once (DIFF_MAX_CONCURRENT); more → 429. */
      maxConcurrent: number;
      /** What the kept diffs may hold in bytes (DIFF_CACHE_BYTES; DiffTable.bytes). */
      cacheBytes: number;
    };
    /** A payroll left in Processing longer than this (its worker died) is marked Failed. */
    payrollRunTimeoutSec: number;
    /**
     * Employees per chunk of a run (PAYROLL_CHUNK_SIZE, issue 70): each chunk is a job any worker takes;
     * also per window of the books (bank file, journal, register), which read a payroll a window at a time.
     */
    payrollChunkSize: number;
    /** Employees per chunk of a payslip generation (PAYSLIP_CHUNK_SIZE, issue 70): their payslips and PDFs, one job any worker takes. */
    payslipChunkSize: number;
  }
}

declareConfig('diff', ({ int, size }) => ({
  maxConcurrent: int('DIFF_MAX_CONCURRENT', 2, 1, 64),
  cacheBytes: size('DIFF_CACHE_BYTES', '128mb'),
}));
declareConfig('payrollRunTimeoutSec', ({ duration }) => duration('PAYROLL_RUN_TIMEOUT', '15m'));
declareConfig('payrollChunkSize', ({ int }) => int('PAYROLL_CHUNK_SIZE', 2000, 1, 20_000));
declareConfig('payslipChunkSize', ({ int }) => int('PAYSLIP_CHUNK_SIZE', 200, 1, 2000));
