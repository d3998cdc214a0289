import { Injectable } from '@nestjs/common';
import { declaredExtensions } from '../common/meta/extensions';
import countries from 'i18n-iso-countries/index';
import en from 'i18n-iso-countries/langs/en.json';
import { version } from '../../package.json';
import { CURRENCIES, CurrencyDto } from '../common/money/currencies';
import { pageOf } from '../common/paging/list-request';
import { PageQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { mobileModules, mobileModuleSetting } from '../settings/settings.registry';
import { SettingsService } from '../settings/settings.service';
import { CountryDto, ExtensionDto, MOBILE_MODULE_KEYS, MobileModulesDto } from './meta.dto';

// The package's main module registers all of its 80 locales (82 files, 12 ms of each start);
// its `index` registers none, and only English is used.
countries.registerLocale(en);

/** ISO 3166-1 from the maintained i18n-iso-countries package (English names), sorted by code. */
const COUNTRIES: readonly CountryDto[] = Object.entries(countries.getNames('en', { select: 'official' }))
  .map(([code, name]) => ({
    code,
    name,
    iso3: countries.alpha2ToAlpha3(code) ?? '',
    numeric: countries.alpha2ToNumeric(code) ?? '',
  }))
  .sort((a, b) => a.code.localeCompare(b.code));

/** Reference lists and what the service offers (docs/api/decisions.md §11): any authenticated user. */
@Injectable()
export class MetaService {
  constructor(private readonly settings: SettingsService) {}

  countries(query: PageQueryDto): Page<CountryDto> {
    return pageOf([...COUNTRIES], query);
  }

  currencies(query: PageQueryDto): Page<CurrencyDto> {
    return pageOf([...CURRENCIES], query);
  }

  async mobileModules(): Promise<MobileModulesDto> {
    // The seed's keys: a module this build lacks is false.
    const out = Object.fromEntries(MOBILE_MODULE_KEYS.map((key) => [key, false])) as unknown as MobileModulesDto;
    for (const m of mobileModules())
      if (Object.hasOwn(out, m.key))
        out[m.key as keyof MobileModulesDto] = (await this.settings.get(mobileModuleSetting(m.label))) === 'Yes';
    return out;
  }

  extensions(query: PageQueryDto): Page<ExtensionDto> {
    return pageOf(
      declaredExtensions().map((e) => ({ ...e, features: [...e.features], installed: true, version, isGroup: false })),
      query,
    );
  }
}
