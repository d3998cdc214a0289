import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CustomField } from '../entities/custom-field.entity';

/**
 * How long a process reuses the definitions it read for the employees' reads (GET /employees...):
 * a definition changed by another process shows in them at most this much later. Writes of values
 * read the definitions afresh.
 */
export const DEFINITIONS_TTL_MS = 1_000;

/** The custom field definitions (at most 200), by position, for the values' reads and writes. */
@Injectable()
export class CustomFieldDefinitions {
  private cached: { at: number; fields: Promise<CustomField[]> } | null = null;

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The definitions, reused for DEFINITIONS_TTL_MS. */
  recent(): Promise<CustomField[]> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > DEFINITIONS_TTL_MS) {
      const fields = this.fresh();
      this.cached = { at: now, fields };
      fields.catch(() => (this.cached = null));
    }
    return this.cached.fields;
  }

  /** The definitions as stored now (`em`: inside a transaction). */
  fresh(em?: EntityManager): Promise<CustomField[]> {
    return (em ?? this.ds.manager).find(CustomField, { order: { position: 'ASC', id: 'ASC' } });
  }

  /** After this process changed a definition: the next read is fresh. */
  clear(): void {
    this.cached = null;
  }
}
