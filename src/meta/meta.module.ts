import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { MetaController } from './meta.controller';
import { MetaService } from './meta.service';

@Module({ imports: [SettingsModule], controllers: [MetaController], providers: [MetaService] })
export class MetaModule {}
