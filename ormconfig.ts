// Data source for the TypeORM CLI (`npm run migration:run` after `npm run build`).
// The app itself applies migrations at start; `hr db:migrate` does it explicitly.
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/config';
import { dataSourceOptions } from './src/database/data-source';

export default new DataSource(dataSourceOptions(loadConfig(process.env).database));
