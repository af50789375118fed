pub mod limit;
