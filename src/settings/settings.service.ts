import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { ValidationException } from '../common/errors/domain.exception';
import { recordAudit } from '../common/audit/audit-log';
import { openTransaction, transaction } from '../common/database/transaction';
import { SettingDto } from './dto/setting.dto';
import { Setting } from './entities/setting.entity';
import { bySettingOrder, ENABLE_REST_API, SettingDefinition, SETTINGS, TIME_ZONE } from './settings.registry';
import { CompanyClock } from '../common/time/company-clock';

/** Where a setting kept by another module is read and written (SettingsService.keepIn). */
export interface SettingStore {
  read(em?: EntityManager): Promise<string>;
  write(em: EntityManager, value: string): Promise<void>;
}

/**
 * Settings stored in the database, read through a per-process cache of SETTINGS_CACHE_MS (at most
 * 5 s), so a change made by another process (the CLI, another instance) takes effect within that.
 */
@Injectable()
export class SettingsService {
  private cache: { values: Map<string, string>; until: number } | null = null;
  /** Checks other modules add for their settings (a template that must compile): a message, or null. */
  private readonly checks = new Map<string, (value: string) => string | null>();
  private loading: Promise<Map<string, string>> | null = null;
  /** Settings modules registered at start (the notification kinds' defaults), beside those declared (SETTINGS). */
  private readonly registered: SettingDefinition[] = [];
  /** Settings whose value another module keeps in its own table (keepIn). */
  private readonly stores = new Map<string, SettingStore>();
  /** Both, by group and name, and by lower-case name; rebuilt when either grew. */
  private known: { size: number; list: SettingDefinition[]; byName: Map<string, SettingDefinition> } | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(Setting) private readonly settings: Repository<Setting>,
    clock: CompanyClock,
  ) {
    clock.readZoneWith(() => this.get(TIME_ZONE));
  }

  /**
   * Adds settings a module builds at start (in its onModuleInit) from what other modules declared
   * (the notification kinds' defaults); one already known by name is left as it is.
   */
  register(definitions: readonly SettingDefinition[]): void {
    for (const def of definitions) if (!this.find(def.name)) this.registered.push(def);
    this.known = null;
  }

  private definitions(): { list: SettingDefinition[]; byName: Map<string, SettingDefinition> } {
    const size = SETTINGS.length + this.registered.length;
    if (this.known?.size !== size) {
      const list = [...SETTINGS, ...this.registered].sort(bySettingOrder);
      this.known = { size, list, byName: new Map(list.map((d) => [d.name.toLowerCase(), d])) };
    }
    return this.known;
  }

  /** Adds a check of a setting's new values (its module's, in onModuleInit). */
  addCheck(name: string, check: (value: string) => string | null): void {
    this.checks.set(this.definition(name).name, check);
  }

  /**
   * A setting whose value a module keeps in its own table (the Work Week: the default calendar's),
   * read and written there through the settings routes, validated here as any other.
   */
  keepIn(name: string, store: SettingStore): void {
    this.stores.set(this.definition(name).name, store);
  }

  async isRestEnabled(): Promise<boolean> {
    return (await this.get(ENABLE_REST_API)) === 'Yes';
  }

  /** isRestEnabled() from the cache while it is fresh, else undefined (the REST gate's fast path). */
  cachedRestEnabled(): boolean | undefined {
    if (!this.cache || this.cache.until <= Date.now()) return undefined;
    return this.valueIn(this.cache.values, ENABLE_REST_API) === 'Yes';
  }

  /** The value, or the default when never set. Throws a 400 for an unknown name. */
  async get(name: string): Promise<string> {
    const store = this.stores.get(this.definition(name).name);
    return store ? store.read() : this.valueIn(await this.values(), name);
  }

  async list(): Promise<SettingDto[]> {
    const values = await this.values();
    const out: SettingDto[] = [];
    for (const def of this.definitions().list) {
      const store = this.stores.get(def.name);
      out.push(this.toDto(def.name, store ? await store.read() : (values.get(def.name) ?? def.default)));
    }
    return out;
  }

  async set(name: string, value: string): Promise<SettingDto> {
    const def = this.definition(name);
    if (def.values && !def.values.includes(value)) {
      throw ValidationException.field('value', `must be one of ${def.values.join(', ')} for "${def.name}"`);
    }
    if (def.pattern && !def.pattern.test(value)) {
      throw ValidationException.field('value', `is not a valid value for "${def.name}": ${def.description}`);
    }
    if (def.maxLength !== undefined && value.length > def.maxLength) {
      throw ValidationException.field('value', `must be at most ${def.maxLength} characters`);
    }
    const problem = def.check?.(value) ?? this.checks.get(def.name)?.(value);
    if (problem) throw ValidationException.field('value', `is not a valid value for "${def.name}": ${problem}`);
    const store = this.stores.get(def.name);
    await transaction(this.settings.manager.dataSource, async (em) => {
      const before = store
        ? await store.read(em)
        : ((await em.findOne(Setting, { where: { name: def.name } }))?.value ?? def.default);
      if (store) await store.write(em, value);
      else await em.getRepository(Setting).upsert({ name: def.name, value, updatedAt: new Date() }, ['name']);
      await recordAudit(em, {
        action: 'update',
        resource: 'settings',
        resourceId: def.name,
        before: { value: before },
        after: { value },
      });
    });
    this.cache = null;
    return this.toDto(def.name, value);
  }

  private valueIn(values: Map<string, string>, name: string): string {
    const def = this.definition(name);
    return values.get(def.name) ?? def.default;
  }

  private definition(name: string) {
    const def = this.find(name);
    if (!def)
      throw ValidationException.field(
        'name',
        `unknown setting; known: ${this.definitions()
          .list.map((s) => s.name)
          .join(', ')}`,
      );
    return def;
  }

  private find(name: string): SettingDefinition | undefined {
    return this.definitions().byName.get(name.toLowerCase());
  }

  private toDto(name: string, value: string): SettingDto {
    const def = this.definition(name);
    return {
      name: def.name,
      value,
      group: def.group,
      description: def.description,
      allowed_values: def.values ? [...def.values] : null,
    };
  }

  private async values(): Promise<Map<string, string>> {
    if (this.cache && this.cache.until > Date.now()) return this.cache.values;
    // Inside a transaction, read through it: a load another request began outside it waits, on
    // SQLite, for this transaction to end, and awaiting that load here never ended (an import's
    // transaction asking for the company's day while a request reloaded the settings).
    const em = openTransaction(this.settings.manager.connection);
    if (em) return new Map((await em.find(Setting)).map((r) => [r.name, r.value]));
    this.loading ??= this.settings
      .find()
      .then((rows) => {
        const values = new Map(rows.map((r) => [r.name, r.value]));
        this.cache = { values, until: Date.now() + this.config.settingsCacheMs };
        return values;
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }
}
