export type { CuratorOverview, DatasetOverview } from './learning-loop.js';
export type { FineTuneJob, ModelActivation } from './fine-tune.types.js';
