import { createFastEstimator, createTokenCounter } from '@compaction/core';

/** A counter over core's fast estimator, shared by the tests of one file. */
export const counter = createTokenCounter(createFastEstimator());
