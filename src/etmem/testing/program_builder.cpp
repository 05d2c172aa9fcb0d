// placeholder until the builder lands
