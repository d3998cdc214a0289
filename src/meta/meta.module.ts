import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { SettingsModule } from '../settings/settings.module';
import { MetaController } from './meta.controller';
import { MetaService } from './meta.service';

declareApiTag('Meta', 'Countries, currencies, mobile modules, extensions', 190);

@Module({ imports: [SettingsModule], controllers: [MetaController], providers: [MetaService] })
export class MetaModule {}
