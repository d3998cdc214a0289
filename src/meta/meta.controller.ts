import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../common/auth/access.decorators';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { CurrencyDto } from '../common/money/currencies';
import { PageQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { CountryDto, ExtensionDto, MobileModulesDto } from './meta.dto';
import { MetaService } from './meta.service';

@ApiTags('Meta')
@ApiBearerAuth()
@Controller('meta')
export class MetaController {
  constructor(private readonly meta: MetaService) {}

  @Get('countries')
  @Authenticated()
  @ApiOperation({ summary: 'Countries (ISO 3166-1), by alpha-2 code' })
  @ApiListEnvelope(CountryDto)
  @ApiErrors(400, 401)
  countries(@Query() query: PageQueryDto): Page<CountryDto> {
    return this.meta.countries(query);
  }

  @Get('currency')
  @Authenticated()
  @ApiOperation({ summary: 'Currencies (ISO 4217, with minor units), by code' })
  @ApiListEnvelope(CurrencyDto)
  @ApiErrors(400, 401)
  currency(@Query() query: PageQueryDto): Page<CurrencyDto> {
    return this.meta.currencies(query);
  }

  @Get('mobile-modules')
  @Authenticated()
  @ApiOperation({ summary: 'Which modules the mobile app shows (settings "Mobile App: …", Yes/No)' })
  @ApiOkEnvelope(MobileModulesDto)
  @ApiErrors(401)
  mobileModules(): Promise<MobileModulesDto> {
    return this.meta.mobileModules();
  }

  @Get('extensions')
  @Authenticated()
  @ApiOperation({ summary: "This service's modules as extension entries, with the service version" })
  @ApiListEnvelope(ExtensionDto)
  @ApiErrors(400, 401)
  extensions(@Query() query: PageQueryDto): Page<ExtensionDto> {
    return this.meta.extensions(query);
  }
}
