import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { FILE_STORE, FileStore } from './file-store';
import { LocalFileStore } from './local-file-store';
import { S3FileStore } from './s3-file-store';

/** The FileStore FILE_STORAGE names. */
export function fileStoreOf(config: AppConfig['fileStorage']): FileStore {
  return config.type === 'local' ? new LocalFileStore(config.dir) : new S3FileStore(config);
}

/** Global: the configured FileStore (FILE_STORE) for every module that keeps files. */
@Global()
@Module({
  providers: [{ provide: FILE_STORE, inject: [APP_CONFIG], useFactory: (config: AppConfig) => fileStoreOf(config.fileStorage) }],
  exports: [FILE_STORE],
})
export class StorageModule {}
