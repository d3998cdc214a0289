import { Global, Module } from '@nestjs/common';
import { ImportKinds } from './import-kind';

/** Global: every domain module registers its import kinds; the Imports module reads them. */
@Global()
@Module({ providers: [ImportKinds], exports: [ImportKinds] })
export class ImportKindsModule {}
