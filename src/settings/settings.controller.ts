import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Levels } from '../common/auth/access.decorators';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { PageQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { pageOf } from '../common/paging/list-request';
import { SettingDto, UpdateSettingDto } from './dto/setting.dto';
import { SettingsService } from './settings.service';

@ApiTags('Settings')
@ApiBearerAuth()
@Controller('settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @Levels('Admin')
  @ApiOperation({ summary: 'List the settings with their current values' })
  @ApiListEnvelope(SettingDto)
  @ApiErrors(400, 401, 403)
  async list(@Query() query: PageQueryDto): Promise<Page<SettingDto>> {
    return pageOf(await this.settings.list(), query);
  }

  @Put()
  @Levels('Admin')
  @ApiOperation({
    summary: 'Change one setting',
    description: 'Every running process sees the change within SETTINGS_CACHE_MS (default 2 s, at most 5 s).',
  })
  @ApiOkEnvelope(SettingDto)
  @ApiErrors(400, 401, 403)
  set(@Body() dto: UpdateSettingDto): Promise<SettingDto> {
    return this.settings.set(dto.name, dto.value);
  }
}
