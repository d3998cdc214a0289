import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { EchoController } from './echo.controller';

declareApiTag('Echo', 'GET /echo: is the API enabled and routed', 20);

@Module({ controllers: [EchoController] })
export class EchoModule {}
