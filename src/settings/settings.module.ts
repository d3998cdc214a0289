import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Setting } from './entities/setting.entity';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

declareApiTag('Settings', 'Settings of the installation (Enable Rest Api, Company Name...)', 40);

@Module({
  imports: [TypeOrmModule.forFeature([Setting])],
  controllers: [SettingsController],
  providers: [SettingsService],
  exports: [SettingsService],
})
export class SettingsModule {}
