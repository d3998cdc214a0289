import { Global, Module } from '@nestjs/common';
import { PersonalData } from './personal-data';

/** Global: modules register the holders of the personal data they keep; the privacy module runs them. */
@Global()
@Module({ providers: [PersonalData], exports: [PersonalData] })
export class PersonalDataModule {}
